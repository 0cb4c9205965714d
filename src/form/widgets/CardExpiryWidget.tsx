/** Card expiry typed as MM/AA: the slash is added after the month. */
import type { WidgetProps } from '@rjsf/utils';
import { MaskedInput } from './MaskedInput';

/** "1228" → "12/28"; keeps at most 4 digits. */
export function formatExpiry(raw: string): string {
  const d = raw.replace(/\D/g, '').slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

export function CardExpiryWidget(props: WidgetProps) {
  return <MaskedInput {...props} format={formatExpiry} autoComplete="cc-exp" />;
}
