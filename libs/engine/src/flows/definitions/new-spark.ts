import { texts } from '@sparks/core';
import type { Flow } from '../types';

/** Creates a Spark from a short conversation, then hands over to its builder chat. */
export const newSparkFlow: Flow = {
  name: 'new-spark',
  start: 'business',
  steps: [
    {
      id: 'business',
      say: [texts('assistants.newSpark.business.say.0')],
      answer: { kind: 'text', min: 2, max: 80 },
      fact: 'name',
      field: 'name',
      effects: [{ set: 'var', key: 'business' }],
      next: 'description',
    },
    {
      id: 'description',
      say: [texts('assistants.newSpark.description.say.0')],
      answer: { kind: 'text', min: 10, max: 800 },
      fact: 'description',
      field: 'description',
      effects: [{ set: 'var', key: 'description' }],
      next: 'purpose',
    },
    {
      id: 'purpose',
      say: [texts('assistants.newSpark.purpose.say.0')],
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'questions',
            label: texts('assistants.newSpark.purpose.questions.label'),
            synonyms: ['preguntas', 'questions', 'faq', 'dudas'],
          },
          {
            value: 'sell',
            label: texts('assistants.newSpark.purpose.sell.label'),
            synonyms: ['vender', 'ventas', 'sell', 'sales', 'shop', 'tienda'],
          },
          {
            value: 'bookings',
            label: texts('assistants.newSpark.purpose.bookings.label'),
            synonyms: ['reservas', 'citas', 'bookings', 'appointments', 'reservations'],
          },
          {
            value: 'support',
            label: texts('assistants.newSpark.purpose.support.label'),
            synonyms: ['soporte', 'atención al cliente', 'support', 'ayuda', 'help desk'],
          },
        ],
      },
      effects: [{ set: 'var', key: 'purpose' }],
      next: 'language',
    },
    {
      id: 'language',
      say: [texts('assistants.newSpark.language.say.0')],
      answer: { kind: 'language' },
      field: 'language',
      effects: [{ set: 'var', key: 'language' }],
      next: 'create',
    },
    {
      id: 'create',
      say: [texts('assistants.newSpark.create.say.0')],
      answer: { kind: 'none' },
      effects: [{ do: 'createSpark' }],
      next: 'created',
    },
    {
      id: 'created',
      say: [texts('assistants.newSpark.created.say.0')],
      answer: {
        kind: 'choice',
        widget: 'buttons',
        choices: [
          { value: 'open', label: texts('assistants.newSpark.created.open.label'), goto: '/spark/{createdSparkId}' },
        ],
      },
      next: 'created',
    },
  ],
};
