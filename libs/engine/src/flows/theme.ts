import type { I18n } from './types';

export interface Palette {
  id: string;
  name: I18n;
  primary: string;
  secondary: string;
}

/** The colour palettes offered for a Spark's widget. */
export const PALETTES: Palette[] = [
  { id: 'violet', name: { es: 'Violeta', en: 'Violet' }, primary: '#6d4aff', secondary: '#efeaff' },
  { id: 'ocean', name: { es: 'Océano', en: 'Ocean' }, primary: '#0b6bcb', secondary: '#e3f1ff' },
  { id: 'forest', name: { es: 'Bosque', en: 'Forest' }, primary: '#1f7a4d', secondary: '#e4f5ec' },
  { id: 'sunset', name: { es: 'Atardecer', en: 'Sunset' }, primary: '#c4471f', secondary: '#fdebe4' },
  { id: 'graphite', name: { es: 'Grafito', en: 'Graphite' }, primary: '#2f3440', secondary: '#eceef2' },
  { id: 'rose', name: { es: 'Rosa', en: 'Rose' }, primary: '#c2185b', secondary: '#fce4ef' },
];

export interface Icon {
  id: string;
  name: I18n;
  /** The icon's key, drawn by the web app and the widget. */
  icon: string;
}

export const ICONS: Icon[] = [
  { id: 'sparkles', name: { es: 'Destellos', en: 'Sparkles' }, icon: 'sparkles' },
  { id: 'chat', name: { es: 'Burbuja de chat', en: 'Chat bubble' }, icon: 'chat' },
  { id: 'robot', name: { es: 'Robot', en: 'Robot' }, icon: 'robot' },
  { id: 'store', name: { es: 'Tienda', en: 'Store' }, icon: 'store' },
  { id: 'heart', name: { es: 'Corazón', en: 'Heart' }, icon: 'heart' },
  { id: 'help', name: { es: 'Ayuda', en: 'Help' }, icon: 'help' },
];
