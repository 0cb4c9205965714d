/**
 * Shared input accessibility: which texts describe a control, and Enter blurring it (SPEC §5:
 * pressing Enter in an input blurs the field, hiding the mobile keyboard).
 */
import type { KeyboardEvent } from 'react';

/** `aria-describedby` for control `id`: its help (`<id>__help`) and its error (`<id>__error`), or undefined. */
export function describedBy(id: string, has: { help?: unknown; error?: unknown }): string | undefined {
  return [has.help ? `${id}__help` : '', has.error ? `${id}__error` : ''].filter(Boolean).join(' ') || undefined;
}

/** onKeyDown handler: Enter blurs the input. */
export function blurOnEnter(e: KeyboardEvent<HTMLInputElement>): void {
  if (e.key === 'Enter') e.currentTarget.blur();
}
