/**
 * The website widget's loader (`/widget.js`, ≤ 3 KB gzipped): one `<script src="…/widget.js"
 * data-token="dt_…" async>` on any page. It asks for the Spark's look (the server answers only pages
 * on the Spark's allow-list), draws a launcher button in a shadow root (the host page's CSS
 * cannot reach it, nor ours the page), and loads the chat UI only when the button is pressed or the
 * browser is idle. `window.Sparks` opens, closes and switches the language (at once: calls made
 * before the launcher is drawn wait for it).
 */
import { text, type WidgetLanguage } from './texts';
import type { ChatModule, ChatPanel, WidgetConfig } from './types';

const SVG = 'http://www.w3.org/2000/svg';

/**
 * The Spark's icon (the one chosen in the builder) from the paths the config sends: the loader carries
 * no icon of its own. Built with DOM calls, so nothing of the answer is parsed as markup.
 */
function icon(paths: string[]): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  const attrs: Record<string, string> = {
    viewBox: '0 0 24 24',
    width: '28',
    height: '28',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '1.8',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
    focusable: 'false',
  };
  for (const k in attrs) svg.setAttribute(k, attrs[k]);
  for (const d of paths) svg.appendChild(document.createElementNS(SVG, 'path')).setAttribute('d', d);
  return svg;
}

const script = document.currentScript as HTMLScriptElement | null;
const token = script?.dataset.token;
if (script && token) {
  const base = new URL(script.src).origin;
  const api = `${base}/api/v1/public/widgets/${encodeURIComponent(token)}`;
  const asked = script.dataset.language;
  let chat: Promise<ChatModule> | undefined;
  let panel: ChatPanel | undefined;
  // `window.Sparks` is there at once: calls made before the launcher is drawn (its config still on
  // the way) wait for it and run in order.
  type Api = NonNullable<Window['Sparks']>;
  let ready: Api | undefined;
  const waiting: Array<(api: Api) => void> = [];
  const call = (f: (api: Api) => void) => (ready ? f(ready) : waiting.push(f));
  window.Sparks = {
    open: () => call((s) => s.open()),
    close: () => call((s) => s.close()),
    setLanguage: (next) => call((s) => s.setLanguage(next)),
  };

  const loadChat = () =>
    (chat ??= new Promise<ChatModule>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = `${base}/widget/chat.js`;
      s.async = true;
      s.onload = () => (window.__sparksChat ? resolve(window.__sparksChat) : reject(new Error('no chat')));
      s.onerror = reject;
      document.head.appendChild(s);
    }));

  const draw = (config: WidgetConfig) => {
    // A page that took the snippet off before its look arrived (the app's live preview, left) gets no launcher.
    if (!script.isConnected) return;
    let language: WidgetLanguage = asked === 'es' || asked === 'en' ? asked : config.language;
    const host = document.createElement('div');
    host.setAttribute('data-sparks-widget', '');
    const root = host.attachShadow({ mode: 'open' });
    // The page may choose the corner (the Pulse's setting): data-position="left" or "right".
    const side = (script.dataset.position ?? config.position) === 'left' ? 'left' : 'right';
    root.innerHTML = `<style>:host{all:initial}.l{position:fixed;bottom:20px;${side}:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}.l:focus-visible{outline:3px solid #111;outline-offset:3px}.l[aria-expanded=true]{display:none}</style><button class="l" type="button" aria-haspopup="dialog" aria-expanded="false"></button>`;
    const button = root.querySelector('button') as HTMLButtonElement;
    // The Spark's palette: its icon in the light colour on the main one.
    button.style.background = config.theme.primary;
    button.style.color = config.theme.secondary;
    button.setAttribute('data-icon', config.theme.icon ?? 'sparkles');
    button.appendChild(icon(config.theme.iconPaths ?? []));
    const label = () => button.setAttribute('aria-label', text(language, 'open', { name: config.name }));
    label();
    const close = () => {
      panel?.close();
      button.setAttribute('aria-expanded', 'false');
      button.focus();
    };
    const open = () =>
      void loadChat().then((module) => {
        panel ??= module.mount({ root, api, base, config, language, onClose: close });
        button.setAttribute('aria-expanded', 'true');
        panel.open();
      });
    button.addEventListener('click', open);
    document.body.appendChild(host);
    ready = {
      open,
      close,
      setLanguage(next: string) {
        if (next !== 'es' && next !== 'en') return;
        language = next;
        label();
        panel?.setLanguage(next);
      },
    };
    for (const f of waiting.splice(0)) f(ready);
    const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 1));
    idle(() => void loadChat().catch(() => undefined));
  };

  fetch(`${api}/config`)
    .then((r) => (r.ok ? (r.json() as Promise<{ data: WidgetConfig }>) : Promise.reject(new Error(String(r.status)))))
    .then(({ data }) => {
      if (document.body) draw(data);
      else document.addEventListener('DOMContentLoaded', () => draw(data));
    })
    // A page that is not on the Spark's allow-list (or a token no longer valid) shows nothing.
    .catch(() => undefined);
}
