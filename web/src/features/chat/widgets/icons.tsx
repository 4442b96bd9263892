import { isWidgetIconKey, widgetIconPaths } from '@sparks/contracts/icons';

/**
 * A widget icon (docs/product.md §3 iconSelector), drawn from the paths the website widget's launcher
 * draws too; decorative (the button or the text around it names it). Unknown keys draw "sparkles".
 */
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
      {widgetIconPaths(key).map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
