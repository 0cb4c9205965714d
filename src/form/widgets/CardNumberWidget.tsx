/**
 * Card number typed in groups of 4 (Amex 4-6-5); the value kept is digits with spaces, as typed.
 * The brand is shown once the prefix tells it (credit-card-type, the library behind card-validator).
 * The number lives only in memory: the flow's `persist.exclude` keeps it out of localStorage.
 */
import type { WidgetProps } from '@rjsf/utils';
import creditCardType from 'credit-card-type';
import { MaskedInput } from './MaskedInput';

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  maestro: 'Maestro',
};

/** Digits grouped for display: 4-4-4-4(-3), or 4-6-5 for Amex. */
export function groupCardDigits(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 19);
  const amex = /^3[47]/.test(digits);
  const groups = amex ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let i = 0;
  for (const g of groups) {
    if (i >= digits.length) break;
    out.push(digits.slice(i, i + g));
    i += g;
  }
  return out.join(' ');
}

export function CardNumberWidget(props: WidgetProps) {
  const digits = String(props.value ?? '').replace(/\D/g, '');
  const brand = digits.length >= 4 ? creditCardType(digits)[0]?.type : undefined;
  const suffix = brand ? <span className="input__affix input__affix--end card-brand">{BRAND_NAMES[brand] ?? brand}</span> : null;
  return <MaskedInput {...props} format={groupCardDigits} autoComplete="cc-number" suffix={suffix} />;
}
