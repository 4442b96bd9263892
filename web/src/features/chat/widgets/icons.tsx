import type { JSX } from 'react';

/** The widget icons a Spark can wear (docs/product.md §3 iconSelector), drawn inline. Unknown keys draw "sparkles". */
export const WIDGET_ICON_KEYS = ['sparkles', 'chat', 'robot', 'store', 'heart', 'help'] as const;
export type WidgetIconKey = (typeof WIDGET_ICON_KEYS)[number];

const paths: Record<WidgetIconKey, JSX.Element> = {
  sparkles: (
    <>
      <path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z" />
      <path d="M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z" />
      <path d="M5 2l.6 1.4L7 4l-1.4.6L5 6l-.6-1.4L3 4l1.4-.6z" />
    </>
  ),
  chat: <path d="M4 5h16a1 1 0 011 1v10a1 1 0 01-1 1H9l-5 4v-4H4a1 1 0 01-1-1V6a1 1 0 011-1z" />,
  robot: (
    <>
      <rect x="4" y="8" width="16" height="12" rx="3" />
      <path d="M12 4v4M9 13h.01M15 13h.01M9 17h6M2 13v3M22 13v3" />
      <circle cx="12" cy="3" r="1" />
    </>
  ),
  store: (
    <>
      <path d="M3 9l1.5-5h15L21 9" />
      <path d="M3 9a3 3 0 006 0 3 3 0 006 0 3 3 0 006 0" />
      <path d="M5 11.5V20h14v-8.5M10 20v-5h4v5" />
    </>
  ),
  heart: <path d="M12 20s-7-4.4-9-9a4.8 4.8 0 019-3 4.8 4.8 0 019 3c-2 4.6-9 9-9 9z" />,
  help: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9.5a2.5 2.5 0 114 2c-.9.6-1.5 1.1-1.5 2.2M12 17h.01" />
    </>
  ),
};

export function isWidgetIconKey(key: unknown): key is WidgetIconKey {
  return typeof key === 'string' && (WIDGET_ICON_KEYS as readonly string[]).includes(key);
}

/** A widget icon; decorative (the button or the text around it names it). */
export function WidgetIcon({ icon, size = 24 }: { icon: string | null | undefined; size?: number }) {
  const key = isWidgetIconKey(icon) ? icon : 'sparkles';
  return (
    <svg
      className="widget-icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-icon={key}
    >
      {paths[key]}
    </svg>
  );
}
