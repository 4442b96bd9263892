import { PALETTES } from './theme';

/** WCAG 2.1 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

describe('the widget palettes an owner can pick', () => {
  // The widget writes white on the primary colour (its header, the visitor's bubbles, the send button) and its dark
  // text (#111827) on the secondary one (the Spark's bubbles): both must be readable (WCAG 2.1 AA, 4.5:1).
  it.each(PALETTES.map((p) => [p.id, p] as const))('%s keeps 4.5:1 for its texts', (_id, palette) => {
    expect(contrast('#ffffff', palette.primary)).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#111827', palette.secondary)).toBeGreaterThanOrEqual(4.5);
  });
});
