/**
 * The values of a Spark an owner may change from any step of its chat ("change the name to Espiga", "mejor verde",
 * "el segundo color"), and the choices of those that are chosen from a list.
 */

import { texts } from '@sparks/core';
import { ICONS, PALETTES } from '../theme';
import type { Choice } from '../types';
import { LANGUAGE_CHOICES } from '../understand';

export type Field = 'name' | 'greeting' | 'description' | 'palette' | 'icon' | 'tone' | 'language';

/** The tones a Spark may speak in (the builder's tone step offers them). */
export const TONE_CHOICES: Choice[] = [
  {
    value: 'friendly',
    label: texts('assistants.toneChoices.friendly.label'),
    synonyms: ['amable', 'cercano', 'friendly', 'warm', 'calido', 'amigable', 'cordial'],
  },
  {
    value: 'professional',
    label: texts('assistants.toneChoices.professional.label'),
    synonyms: ['formal', 'serio', 'professional', 'serious', 'profesional', 'corporate', 'corporativo', 'elegant'],
  },
  {
    value: 'fun',
    label: texts('assistants.toneChoices.fun.label'),
    synonyms: [
      'divertido',
      'informal',
      'fun',
      'casual',
      'funny',
      'playful',
      'desenfadado',
      'gracioso',
      'alegre',
      'light hearted',
      'lighthearted',
    ],
  },
];

/** The choices of the fields chosen from a list. */
export const FIELD_CHOICES: Partial<Record<Field, Choice[]>> = {
  palette: PALETTES.map((p) => ({ value: p.id, label: p.name, synonyms: [p.primary, ...p.words] })),
  icon: ICONS.map((i) => ({ value: i.id, label: i.name, synonyms: [i.icon, ...i.words] })),
  tone: TONE_CHOICES,
  language: LANGUAGE_CHOICES,
};
