import type { WidgetLanguage } from './texts';

/** What GET /public/widgets/:token/config answers (`WidgetConfigView`). */
export interface WidgetConfig {
  sparkId: string;
  name: string;
  language: WidgetLanguage;
  initialMessage: string;
  position: 'right' | 'left';
  theme: { primary: string; secondary: string; icon: string | null; iconPaths: string[] };
  /** Days the visitor's conversation is kept after its last message (said before the first message). */
  retentionDays: number;
}

/** What the loader hands the chat UI when it is first opened. */
export interface MountOptions {
  root: ShadowRoot;
  /** `<server>/api/v1/public/widgets/<token>` */
  api: string;
  /** The widget server's origin (images of replies load only from there). */
  base: string;
  config: WidgetConfig;
  language: WidgetLanguage;
  onClose: () => void;
}

export interface ChatPanel {
  open(): void;
  close(): void;
  setLanguage(language: WidgetLanguage): void;
}

export interface ChatModule {
  mount(options: MountOptions): ChatPanel;
}

declare global {
  interface Window {
    __sparksChat?: ChatModule;
    Sparks?: { open(): void; close(): void; setLanguage(language: string): void };
  }
}
