/**
 * The preview route's gate (its own small chunk): under `npm run dev` it opens the staff preview at once; on a
 * production build it asks GET /api/vista-previa and opens it only when the server has VISTA_PREVIA=1, otherwise it
 * sends the visitor to the entry step as any unknown path does. The preview itself (./Preview) is loaded only then.
 */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { API_BASE } from '../api/client';
import type { FlowEngine } from '../engine/model';

const Preview = lazy(() => import('./Preview').then((m) => ({ default: m.Preview })));

export function PreviewGate({ engine, closed }: { engine: FlowEngine; closed: ReactNode }) {
  const [open, setOpen] = useState<boolean | null>(import.meta.env.DEV ? true : null);
  useEffect(() => {
    if (open !== null) return;
    fetch(`${API_BASE}/vista-previa`, { headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? (r.json() as Promise<{ habilitada?: boolean }>) : { habilitada: false }))
      .then(
        (r) => setOpen(r.habilitada === true),
        () => setOpen(false),
      );
  }, [open]);
  if (open === null) return null;
  if (!open) return <>{closed}</>;
  return (
    <Suspense fallback={null}>
      <Preview engine={engine} />
    </Suspense>
  );
}
