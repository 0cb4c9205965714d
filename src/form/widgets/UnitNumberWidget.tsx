/** Whole-number input with a unit suffix (m²); delegates to our BaseInputTemplate. */
import type { WidgetProps } from '@rjsf/utils';
import { getTemplate } from '@rjsf/utils';

export function UnitNumberWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  return <BaseInputTemplate {...props} />;
}
