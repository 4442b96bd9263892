/**
 * The widget icons a Spark can wear (the builder's iconSelector), as the `d` of SVG paths on a 24 × 24
 * grid, drawn with a 1.8 stroke and no fill. One source for the web app (`WidgetIcon`), the widget's
 * config (`GET /public/widgets/:token/config` sends the paths, so the loader carries none) and its
 * launcher button. Unknown keys draw `sparkles`.
 */
export const WIDGET_ICON_PATHS = {
  sparkles: [
    'M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z',
    'M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
    'M5 2l.6 1.4L7 4l-1.4.6L5 6l-.6-1.4L3 4l1.4-.6z',
  ],
  chat: ['M4 5h16a1 1 0 011 1v10a1 1 0 01-1 1H9l-5 4v-4H4a1 1 0 01-1-1V6a1 1 0 011-1z'],
  robot: [
    'M7 8h10a3 3 0 013 3v6a3 3 0 01-3 3H7a3 3 0 01-3-3v-6a3 3 0 013-3z',
    'M12 4v4M9 13h.01M15 13h.01M9 17h6M2 13v3M22 13v3',
    'M11 3a1 1 0 102 0 1 1 0 10-2 0',
  ],
  store: ['M3 9l1.5-5h15L21 9', 'M3 9a3 3 0 006 0 3 3 0 006 0 3 3 0 006 0', 'M5 11.5V20h14v-8.5M10 20v-5h4v5'],
  heart: ['M12 20s-7-4.4-9-9a4.8 4.8 0 019-3 4.8 4.8 0 019 3c-2 4.6-9 9-9 9z'],
  help: ['M3 12a9 9 0 1018 0 9 9 0 10-18 0', 'M9.5 9.5a2.5 2.5 0 114 2c-.9.6-1.5 1.1-1.5 2.2M12 17h.01'],
} as const satisfies Record<string, readonly string[]>;

export type WidgetIconKey = keyof typeof WIDGET_ICON_PATHS;

export function isWidgetIconKey(key: unknown): key is WidgetIconKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(WIDGET_ICON_PATHS, key);
}

/** The paths of an icon; `sparkles` for an unknown or missing key. */
export function widgetIconPaths(key: string | null | undefined): readonly string[] {
  return WIDGET_ICON_PATHS[isWidgetIconKey(key) ? key : 'sparkles'];
}
