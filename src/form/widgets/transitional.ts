/**
 * A widget's value for a tap that must paint at once (no long task on a tap): a plan, a coverage, a picked locality.
 */
import { startTransition, useOptimistic } from 'react';

/**
 * `value` as the visitor just set it, and the setter to call on a tap: the new value is shown at once (React's
 * optimistic state: a small urgent render of the widget), while the form receives it through `onChange` in a
 * transition, which React renders in slices together with whatever the change opens or re-prices. The shown value
 * falls back to `value` once the form holds the new one.
 * @param shownOf what the widget shows for what the form receives, when they differ (a locality combobox shows a
 *   picked locality by its name); without it, the value itself
 * @returns `[shown, choose]`
 */
export function useTransitionalValue<T>(value: T, onChange: (next: T) => void): [T, (next: T) => void];
export function useTransitionalValue<S, T>(value: S, onChange: (next: T) => void, shownOf: (next: T) => S): [S, (next: T) => void];
export function useTransitionalValue<S, T>(
  value: S,
  onChange: (next: T) => void,
  // only the first signature omits it, where S and T are one type
  shownOf: (next: T) => S = (next) => next as unknown as S,
): [S, (next: T) => void] {
  const [shown, show] = useOptimistic(value);
  const choose = (next: T) =>
    startTransition(() => {
      show(shownOf(next));
      onChange(next);
    });
  return [shown, choose];
}
