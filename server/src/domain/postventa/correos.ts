/**
 * The after-sale e-mails as queued in the outbox (domain/correo/outbox.ts sends them): the policy e-mail, the quote
 * e-mail with its resume link, and the confirmation of a withdrawal or cancellation. Pure builders: data in, the
 * outbox row (`CorreoNuevo`: subject, text and HTML bodies, attachments by reference) out. Texts: src/i18n/es.json ›
 * servidor.postventa.correos.*, legal.* (the baja's effective date: legal.bajaRige, one text for the form, the result
 * page, the lookup page, the e-mail and the policy PDF).
 */
import type { Cotizacion } from '../../db/repositories/cotizaciones.ts';
import type { CorreoNuevo } from '../../db/repositories/correos.ts';
import type { Persona } from '../../db/repositories/personas.ts';
import type { DatosPoliza } from '../../db/repositories/polizas.ts';
import { RUTA_CONDICIONES_GENERALES, RUTA_CONSULTA_TRAMITE, RUTAS_LEGALES, RUTAS_POSTVENTA } from '../../../../src/core/rutas.ts';
import { detalleCuotas } from '../../../../src/core/cuotas.ts';
import { pesos } from '../../../../src/core/money.ts';
import { cuerpoCorreo } from '../correo/plantilla.ts';
import { fecha } from '../documentos/formato.ts';
import { texto } from './textos.ts';
import type { Tramite } from './tipos.ts';

/** The sentence of a baja's effective date and what happens to the money (legal.bajaRige). @param efectiva YYYY-MM-DD */
export const textoBajaRige = (efectiva: string) => texto('legal.bajaRige', { fecha: fecha(efectiva) });

/**
 * The policy e-mail: the links the policy document refers to — download the policy (`enlacePoliza`, signed), the
 * botón de arrepentimiento, the botón de baja and the insured's service page — with the policy and its conditions
 * attached. @param publicUrl the site's base URL without trailing slash
 */
export function correoPoliza(publicUrl: string, d: DatosPoliza, enlacePoliza: string): CorreoNuevo {
  const k = 'servidor.postventa.correos.poliza';
  const vars = { numSecuPol: d.numSecuPol, plan: d.plan.nombre, desde: fecha(d.desde), hasta: fecha(d.hasta), nombre: d.persona.firstName };
  const body = cuerpoCorreo(texto(`${k}.saludo`, vars), [
    ...texto(`${k}.parrafos`, vars).split('\n\n'),
    { enlace: enlacePoliza, texto: texto(`${k}.enlaces.descargar`) },
    texto('legal.siniestro'),
    { enlace: `${publicUrl}${RUTAS_LEGALES.atencion}`, texto: texto(`${k}.enlaces.atencion`) },
    texto('legal.arrepentimiento'),
    { enlace: `${publicUrl}${RUTAS_POSTVENTA.arrepentimiento}`, texto: texto('legal.botones.arrepentimiento') },
    texto('legal.baja'),
    { enlace: `${publicUrl}${RUTAS_POSTVENTA.baja}`, texto: texto('legal.botones.baja') },
  ]);
  return {
    tipo: 'POLIZA',
    para: d.persona.email,
    asunto: texto(`${k}.asunto`, vars),
    ...body,
    adjuntos: [
      { tipo: 'poliza', numSecuPol: d.numSecuPol },
      { tipo: 'condiciones', numSecuPol: d.numSecuPol },
    ],
  };
}

/**
 * The quote e-mail to `para`: every plan with its instalment and premium, the general conditions, and the resume
 * link `enlace` valid until `vence` (YYYY-MM-DD); the quote PDF attached.
 */
export function correoCotizacion(publicUrl: string, cot: Cotizacion, para: string, enlace: string, vence: string): CorreoNuevo {
  const k = 'servidor.postventa.correos.cotizacion';
  const body = cuerpoCorreo(texto(`${k}.saludo`), [
    ...texto(`${k}.parrafos`).split('\n\n'),
    {
      lista: cot.planes.map((p) =>
        texto(`${k}.plan`, { plan: p.nombre, cuota: pesos(p.premioCuota), premio: pesos(p.premio), detalle: detalleCuotas(p) }),
      ),
    },
    { enlace: `${publicUrl}/api${RUTA_CONDICIONES_GENERALES}`, texto: texto(`${k}.condiciones`) },
    texto(`${k}.retomar`, { vence: fecha(vence) }),
    { enlace },
  ]);
  return { tipo: 'COTIZACION', para, asunto: texto(`${k}.asunto`), ...body, adjuntos: [{ tipo: 'cotizacion', refId: cot.refId, enlace }] };
}

/**
 * The confirmation of request `r` to the policy's e-mail of record (`titular`): the tracking code, how to look it
 * up, how to object if the holder did not ask for it; for a baja its effective date and, while possible, the last
 * day of a withdrawal. @param hoy the day of the request (YYYY-MM-DD, Argentina)
 */
export function correoTramite(publicUrl: string, r: Tramite, titular: Persona, hoy: string): CorreoNuevo {
  const k = 'servidor.postventa.correos.tramite';
  const vars = { codigo: r.codigo, numSecuPol: r.numSecuPol, fecha: fecha(hoy), nombre: titular.firstName };
  const arrepentimiento = r.tipo === 'ARREPENTIMIENTO';
  const body = cuerpoCorreo(texto(`${k}.saludo`, vars), [
    texto(`${k}.${arrepentimiento ? 'arrepentimiento' : 'baja'}`, vars),
    ...(arrepentimiento ? [] : [textoBajaRige(r.fechaEfectiva)]),
    ...(r.arrepentimientoHasta ? [texto('legal.bajaArrepentimientoHasta', { hasta: fecha(r.arrepentimientoHasta) })] : []),
    texto(`${k}.codigo`, vars),
    texto(`${k}.consultar`, vars),
    { enlace: `${publicUrl}${RUTA_CONSULTA_TRAMITE}` },
    texto(`${k}.objetar`, vars),
  ]);
  return {
    tipo: r.tipo,
    para: titular.email,
    asunto: texto(`${k}.${arrepentimiento ? 'asuntoArrepentimiento' : 'asuntoBaja'}`, vars),
    ...body,
    adjuntos: [],
  };
}
