import { texts } from '@sparks/core';
import type { I18n } from './types';

export interface Palette {
  id: string;
  name: I18n;
  primary: string;
  secondary: string;
  /** Colours people name it by ("verde", "green"), in both languages. */
  words: string[];
}

/** The colour palettes offered for a Spark's widget. */
export const PALETTES: Palette[] = [
  {
    id: 'violet',
    name: texts('assistants.palettes.violet.name'),
    primary: '#6d4aff',
    secondary: '#efeaff',
    words: ['morado', 'lila', 'purpura', 'malva', 'lavanda', 'purple', 'lilac', 'lavender', 'mauve'],
  },
  {
    id: 'ocean',
    name: texts('assistants.palettes.ocean.name'),
    primary: '#0b6bcb',
    secondary: '#e3f1ff',
    words: ['azul', 'celeste', 'marino', 'mar', 'blue', 'navy', 'sea', 'sky blue', 'light blue', 'azulado'],
  },
  {
    id: 'forest',
    name: texts('assistants.palettes.forest.name'),
    primary: '#1f7a4d',
    secondary: '#e4f5ec',
    words: ['verde', 'verdes', 'green', 'greens', 'oliva', 'olive', 'natural', 'nature', 'naturaleza'],
  },
  {
    id: 'sunset',
    name: texts('assistants.palettes.sunset.name'),
    primary: '#c4471f',
    secondary: '#fdebe4',
    words: ['naranja', 'anaranjado', 'rojo', 'coral', 'teja', 'terracota', 'orange', 'orangey', 'red', 'terracotta'],
  },
  {
    id: 'graphite',
    name: texts('assistants.palettes.graphite.name'),
    primary: '#2f3440',
    secondary: '#eceef2',
    words: ['gris', 'negro', 'oscuro', 'carbon', 'grey', 'gray', 'black', 'dark', 'charcoal'],
  },
  {
    id: 'rose',
    name: texts('assistants.palettes.rose.name'),
    primary: '#c2185b',
    secondary: '#fce4ef',
    words: ['rosa', 'rosado', 'fucsia', 'magenta', 'pink', 'fuchsia', 'pinky'],
  },
];

export interface Icon {
  id: string;
  name: I18n;
  /** The icon's key, drawn by the web app and the widget. */
  icon: string;
  /** Other words people call it by. */
  words: string[];
}

export const ICONS: Icon[] = [
  {
    id: 'sparkles',
    name: texts('assistants.icons.sparkles.name'),
    icon: 'sparkles',
    words: ['estrellas', 'brillos', 'chispas', 'stars', 'sparkle', 'magic', 'magia'],
  },
  {
    id: 'chat',
    name: texts('assistants.icons.chat.name'),
    icon: 'chat',
    words: ['burbuja', 'bocadillo', 'bubble', 'speech bubble', 'conversacion'],
  },
  { id: 'robot', name: texts('assistants.icons.robot.name'), icon: 'robot', words: ['bot', 'robotito', 'android'] },
  {
    id: 'store',
    name: texts('assistants.icons.store.name'),
    icon: 'store',
    words: ['shop', 'tiendita', 'comercio', 'carrito', 'cart', 'shopping'],
  },
  {
    id: 'heart',
    name: texts('assistants.icons.heart.name'),
    icon: 'heart',
    words: ['corazoncito', 'love', 'amor', 'corazon'],
  },
  {
    id: 'help',
    name: texts('assistants.icons.help.name'),
    icon: 'help',
    words: ['interrogacion', 'question mark', 'lifebuoy', 'salvavidas', 'info', 'soporte', 'support'],
  },
];
