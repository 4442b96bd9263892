import type { MountOptions, WidgetConfig } from './types';

const CONFIG: WidgetConfig = {
  sparkId: '8f7c5f0e-0000-4000-8000-000000000001',
  name: 'Northwind',
  language: 'en',
  initialMessage: 'Hello!',
  position: 'right',
  theme: { primary: '#4f46e5', secondary: '#eef2ff', icon: null, iconPaths: [] },
  retentionDays: 90,
};

/** Runs the loader as `<script src="https://app.example/widget.js" data-token="dt_test" async>` would. */
async function loadLoader() {
  const script = document.createElement('script');
  script.src = 'https://app.example/widget.js';
  script.dataset.token = 'dt_test';
  document.head.append(script);
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
  let answer!: (config: WidgetConfig) => void;
  const fetch = jest.fn(
    () =>
      new Promise((resolve) => {
        answer = (config) => resolve({ ok: true, status: 200, json: () => Promise.resolve({ data: config }) });
      }),
  );
  Object.assign(globalThis, { fetch });
  await jest.isolateModulesAsync(async () => {
    await import('./loader');
  });
  return { fetch, answer: (config: WidgetConfig) => answer(config) };
}

/** The chat UI's script the loader added: "loads" it with a chat module that records what it is asked. */
function loadChat() {
  const panel = { open: jest.fn(), close: jest.fn(), setLanguage: jest.fn() };
  const mount = jest.fn((_: MountOptions) => panel);
  window.__sparksChat = { mount };
  const tag = document.head.querySelector<HTMLScriptElement>('script[src="https://app.example/widget/chat.js"]');
  expect(tag).not.toBeNull();
  tag!.dispatchEvent(new Event('load'));
  return { panel, mount };
}

const launcher = () =>
  document.querySelector('[data-sparks-widget]')?.shadowRoot?.querySelector('button') as HTMLButtonElement | undefined;
const settle = () => new Promise((r) => setTimeout(r, 10));

describe('widget loader: window.Sparks', () => {
  afterEach(() => {
    delete window.Sparks;
    delete window.__sparksChat;
    document.head.replaceChildren();
    document.body.replaceChildren();
  });

  it('is there as soon as the script runs; calls made before the config arrives run once the launcher is drawn', async () => {
    const { fetch, answer } = await loadLoader();
    expect(fetch).toHaveBeenCalledWith('https://app.example/api/v1/public/widgets/dt_test/config');
    // A host page calls the API right after the script loaded, before the config is back.
    window.Sparks!.setLanguage('es');
    window.Sparks!.open();
    expect(launcher()).toBeUndefined();

    answer(CONFIG);
    await settle();
    expect(launcher()!.getAttribute('aria-label')).toBe('Abrir el chat con Northwind');
    const { panel, mount } = loadChat();
    await settle();
    expect(mount).toHaveBeenCalledTimes(1);
    expect(mount.mock.calls[0][0]).toMatchObject({
      language: 'es',
      api: 'https://app.example/api/v1/public/widgets/dt_test',
    });
    expect(panel.open).toHaveBeenCalledTimes(1);
    expect(launcher()!.getAttribute('aria-expanded')).toBe('true');

    window.Sparks!.close();
    expect(panel.close).toHaveBeenCalledTimes(1);
    expect(launcher()!.getAttribute('aria-expanded')).toBe('false');
  });

  it('draws nothing when its script was taken off the page before the look arrived (an app page left)', async () => {
    const { answer } = await loadLoader();
    document.head.querySelector('script[src="https://app.example/widget.js"]')!.remove();
    answer(CONFIG);
    await settle();
    expect(document.querySelector('[data-sparks-widget]')).toBeNull();
  });
});
