/**
 * API errors with the single wire shape of schemas/api/README.md:
 * `{ status, code, message, errors? }`, messages in Spanish (es-AR, voseo).
 */
export type ErrorCode =
  | 'VALIDACION' | 'CSRF_INVALIDO' | 'NO_ENCONTRADO' | 'CONFLICTO' | 'DEMASIADAS_SOLICITUDES' | 'ERROR_INTERNO' | 'SERVICIO_NO_DISPONIBLE';

/** One bad field: `field` is a JSON pointer into the body/query ("/persona/numberDoc"). */
export interface FieldError {
  field: string;
  message: string;
}

export const MENSAJES = {
  VALIDACION: 'Revisá los datos ingresados.',
  CSRF_INVALIDO: 'Tu sesión de seguridad venció. Volvé a intentar.',
  NO_ENCONTRADO: 'No encontramos lo que buscás.',
  DEMASIADAS_SOLICITUDES: 'Hiciste muchos pedidos seguidos. Esperá un minuto y volvé a intentar.',
  ERROR_INTERNO: 'Tuvimos un problema. Probá de nuevo en unos minutos.',
  SERVICIO_NO_DISPONIBLE: 'El servicio no está disponible en este momento. Probá de nuevo en unos minutos.',
  COTIZACION_NO_ENCONTRADA: 'No encontramos tu cotización. Volvé a cotizar.',
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
