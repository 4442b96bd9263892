import { texts } from '@sparks/core';
import type { Choice, Flow } from '../types';

const actions: Choice[] = [
  {
    value: 'create',
    label: texts('assistants.actions.create.label'),
    goto: '/new-spark',
    synonyms: ['crear spark', 'nuevo spark', 'new spark', 'crear asistente', 'create assistant'],
  },
  {
    value: 'open',
    label: texts('assistants.actions.open.label'),
    goto: '/spark/{newestSparkId}',
    when: 'hasSparks',
    synonyms: ['cambiar spark', 'change spark', 'abrir spark', 'open spark', 'mi spark', 'my spark'],
  },
  {
    value: 'profile',
    label: texts('assistants.actions.profile.label'),
    goto: '/profile',
    synonyms: ['mi perfil', 'my profile', 'perfil', 'profile'],
  },
];

/** The chat home: greets, answers product questions from the built-in help, offers next actions. */
export const mainFlow: Flow = {
  name: 'main',
  start: 'home',
  steps: [
    {
      id: 'home',
      // The chat home's welcome bubble greets the user; this first reply does not greet again (issue 18 item 13).
      say: [texts('assistants.main.home.say.0')],
      // The welcome bubble right above offers these actions: not a second time here (issue 18 walk: the phone
      // showed the same three buttons twice), only again after a help answer, when the bubble is far above.
      answer: {
        kind: 'help',
        quietFirst: true,
        choices: [
          ...actions,
          {
            value: 'question',
            label: texts('assistants.main.home.question.label'),
            synonyms: ['pregunta', 'question', 'tengo una duda', 'i have a doubt'],
          },
        ],
      },
      next: { question: 'question', '*': 'home' },
    },
    {
      id: 'question',
      say: [texts('assistants.main.question.say.0')],
      answer: { kind: 'help', choices: actions },
      next: 'question',
    },
  ],
};
