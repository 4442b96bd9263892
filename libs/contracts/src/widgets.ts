/**
 * The widget types an action message may carry (its `data.type`), free of zod so that the web app can
 * import them as a value (`@sparks/contracts/widgets`). `chat.ts` checks that the list and the widget
 * schemas name the same types.
 */
export const WIDGET_TYPES = [
  'options',
  'buttons',
  'onboarding',
  'colorPalette',
  'iconSelector',
  'card',
  'userCard',
  'widgetPreview',
] as const;

export function isWidgetType(type: unknown): type is (typeof WIDGET_TYPES)[number] {
  return typeof type === 'string' && (WIDGET_TYPES as readonly string[]).includes(type);
}
