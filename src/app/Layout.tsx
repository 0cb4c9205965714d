/**
 * Page frame: brand header, stage progress, the step, plan summary aside, footer, WhatsApp chat
 * button (only when the server enables it, SPEC §1) and the full-screen loader (SPEC §1).
 */
import { useUnit } from 'effector-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chatHref } from '../engine/chat/link.ts';
import { detailPosition } from '../engine/core/navigation.ts';
import type { Step } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model';
import { Icon } from '../form/widgets/Icon';
import { AtencionAsegurado, BotonesLegales, PieLegal } from './Legal';
import { useFrame } from '../screens/frame';

export function Loader({ message }: { message: string }) {
  return (
    <div className="loader" role="status" aria-live="assertive">
      <div className="loader__box">
        <span className="loader__spinner" aria-hidden="true" />
        <p className="loader__text">{message}</p>
      </div>
    </div>
  );
}

function Progress({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t } = useTranslation();
  const stages = engine.flow.stages ?? [];
  const index = step.stage ? stages.indexOf(step.stage) : -1;
  if (step.kind === 'landing' || step.kind === 'result' || index < 0) return null;
  // "pantalla N de M" counts screens: the step's place among the detail screens of the flow, the same number in the
  // prerendered frame and the app (the journey's counter numberDetailStep is the SPEC's state, not what is shown)
  const pos = detailPosition(engine.flow, step.id);
  return (
    <nav className="progress" aria-label={t('app.etapa', { n: index + 1, total: stages.length })}>
      <p className="progress__label">
        <strong>{t('app.etapa', { n: index + 1, total: stages.length })}</strong> · {t(`app.etapas.${step.stage}`)}
        {pos ? <span className="progress__sub"> — {t('app.pregunta', { n: pos.index, total: pos.total })}</span> : null}
      </p>
      <ol className="progress__bar">
        {stages.map((s, i) => (
          <li key={s} className={`progress__seg ${i < index ? 'is-done' : ''} ${i === index ? 'is-current' : ''}`}>
            <span className="visually-hidden">{t(`app.etapas.${s}`)}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The page around `step` (before the journey is restored, its frame: src/screens/frame.ts). */
export function Layout({ engine, step, children }: { engine: FlowEngine; step: Step; children: ReactNode }) {
  const { t } = useTranslation();
  const frame = useFrame();
  const [loadingNow, chatOn, chatPhone, noticeNow] = useUnit([
    engine.$loadingMessage,
    engine.$chatEnabled,
    engine.$chatPhone,
    engine.$notice,
  ]);
  // a frame depends on no journey state: it must equal its prerendered HTML whatever was restored
  const [loading, chatEnabled, notice] = frame ? [null, false, null] : [loadingNow, chatOn, noticeNow];
  const main = useRef<HTMLElement>(null);
  // a new step takes the focus to its heading (a screen reader reads the new question), unless the visitor's focus is
  // on a control of the page already: on the page's first screen the visitor may have focused «Cotizar ahora» before
  // the app was ready, and an Enter on the heading would do nothing. (A step change removes the old step's controls,
  // so the focus is on the body then.)
  useEffect(() => {
    const focused = document.activeElement;
    if (focused && focused !== document.body) return;
    // without scrolling: a new step is scrolled to its top by the router, the page's first step is left where it is
    main.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
  }, [step.id]);
  const chat = engine.flow.chat;
  const chatLink = chat && chatPhone ? chatHref(chat, chatPhone, chat.text ? t(`app.${chat.text}`) : '') : undefined;
  return (
    <div className={`page page--${step.kind}`}>
      <header className="header">
        <div className="header__inner">
          <span className="brand">
            <Icon name="escudo" className="brand__logo" />
            <span className="brand__name">
              {t('app.marca')} <span className="brand__sub">{t('app.marcaSub')}</span>
            </span>
          </span>
          <span className="header__secure">
            <Icon name="candado" /> {t('app.seguro')}
          </span>
          {chatEnabled && chatLink && (
            <a className="chat" href={chatLink} target="_blank" rel="noopener noreferrer" aria-label={t('app.chat')} data-testid="chat">
              <Icon name="chat" />
              <span className="chat__text">{t('app.chat')}</span>
            </a>
          )}
        </div>
      </header>
      <main className="main" ref={main} id="contenido">
        {notice && (
          <div className="banner banner--info" role="status">
            {t(`app.avisos.${notice}`)}
          </div>
        )}
        <Progress engine={engine} step={step} />
        {children}
        {step.kind === 'landing' && (
          <>
            <BotonesLegales className="legal-buttons--home" />
            <AtencionAsegurado />
          </>
        )}
      </main>
      <PieLegal />
      {loading && <Loader message={t(`app.loader.${loading}`, { defaultValue: t('app.loader.default') })} />}
    </div>
  );
}
