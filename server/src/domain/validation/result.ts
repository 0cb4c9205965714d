/**
 * Result of a validator: valid (possibly with extra data) or invalid with the Spanish message the form shows.
 * Validators are pure: they never throw on user input.
 */
export type Validacion<T extends object = object> = ({ valido: true } & T) | { valido: false; mensaje: string };

/** Builds an invalid result with the message shown to the visitor. */
export function invalido(mensaje: string): { valido: false; mensaje: string } {
  return { valido: false, mensaje };
}
