/**
 * A choice widget's value for a tap that must paint at once (no long task on a tap).
 */
import { startTransition, useOptimistic } from 'react';

/**
 * `value` as the visitor just set it, and the setter to call on a tap: the new value is shown at once (React's
 * optimistic state: a small urgent render of the widget), while the form receives it through `onChange` in a
 * transition, which React renders in slices together with whatever the change opens or re-prices. The shown value
 * falls back to `value` once the form holds the new one.
 * @returns `[shown, choose]`
 */
export function useTransitionalValue<T>(value: T, onChange: (next: T) => void): [T, (next: T) => void] {
  const [shown, show] = useOptimistic(value);
  const choose = (next: T) =>
    startTransition(() => {
      show(next);
      onChange(next);
    });
  return [shown, choose];
}
