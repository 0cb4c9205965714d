/**
 * A field's error line: `<id>__error` (the id `aria-describedby` names, see a11y.ts › describedBy), read as
 * «Error: …» by screen readers. Renders nothing without a message.
 */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <p className="field__error" id={`${id}__error`}>
      <span className="visually-hidden">Error: </span>
      {message}
    </p>
  );
}
