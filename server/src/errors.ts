/**
 * API errors with the single wire shape of schemas/api/README.md:
 * `{ status, code, message, errors? }`, messages in Spanish (es-AR, voseo).
 */
import { mensaje } from '../../src/core/messages.ts';

export type ErrorCode =
  'VALIDACION' | 'CSRF_INVALIDO' | 'NO_ENCONTRADO' | 'CONFLICTO' | 'DEMASIADAS_SOLICITUDES' | 'ERROR_INTERNO' | 'SERVICIO_NO_DISPONIBLE';

/** One bad field: `field` is a JSON pointer into the body/query ("/persona/numberDoc"). */
export interface FieldError {
  field: string;
  message: string;
}

/** The generic message of each error code (texts: src/i18n/es.json › servidor). */
export const MENSAJES = {
  VALIDACION: mensaje('servidor.validacion'),
  CSRF_INVALIDO: mensaje('servidor.csrfInvalido'),
  NO_ENCONTRADO: mensaje('servidor.noEncontrado'),
  DEMASIADAS_SOLICITUDES: mensaje('servidor.demasiadasSolicitudes'),
  ERROR_INTERNO: mensaje('servidor.errorInterno'),
  SERVICIO_NO_DISPONIBLE: mensaje('servidor.servicioNoDisponible'),
  COTIZACION_NO_ENCONTRADA: mensaje('servidor.cotizacionNoEncontrada'),
  ANTIBOT_INVALIDO: mensaje('servidor.antibotInvalido'),
} as const;

/** An error the error handler sends as-is (status, code, message, errors). */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  constructor(statusCode: number, code: ErrorCode, message: string, errors?: FieldError[]) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
  }
}

/** 400 VALIDACION with one entry per bad field. */
export function validationError(errors: FieldError[]): ApiError {
  return new ApiError(400, 'VALIDACION', MENSAJES.VALIDACION, errors);
}

/** 404 NO_ENCONTRADO with a specific message. */
export function notFound(message: string = MENSAJES.NO_ENCONTRADO): ApiError {
  return new ApiError(404, 'NO_ENCONTRADO', message);
}

/** 503 SERVICIO_NO_DISPONIBLE: the database is away or the instance is shutting down (the client may retry). */
export function serviceUnavailable(): ApiError {
  return new ApiError(503, 'SERVICIO_NO_DISPONIBLE', MENSAJES.SERVICIO_NO_DISPONIBLE);
}
