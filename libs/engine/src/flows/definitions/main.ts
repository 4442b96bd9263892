import type { Choice, Flow } from '../types';

const actions: Choice[] = [
  {
    value: 'create',
    label: { es: 'Crear un Spark', en: 'Create a Spark' },
    goto: '/new-spark',
    synonyms: ['crear spark', 'nuevo spark', 'new spark', 'crear asistente', 'create assistant'],
  },
  {
    value: 'open',
    label: { es: 'Abrir {newestSparkName}', en: 'Open {newestSparkName}' },
    goto: '/spark/{newestSparkId}',
    when: 'hasSparks',
    synonyms: ['cambiar spark', 'change spark', 'abrir spark', 'open spark', 'mi spark', 'my spark'],
  },
  {
    value: 'profile',
    label: { es: 'Cambiar mis datos', en: 'Change my info' },
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
      say: [
        {
          es: 'Puedo ayudarte con todo lo de Sparks: elige una opción o escríbeme tu pregunta.',
          en: 'I can help with anything about Sparks: pick an option or type your question.',
        },
      ],
      // The welcome bubble right above offers these actions: not a second time here (issue 18 walk: the phone
      // showed the same three buttons twice), only again after a help answer, when the bubble is far above.
      answer: {
        kind: 'help',
        quietFirst: true,
        choices: [
          ...actions,
          {
            value: 'question',
            label: { es: 'Tengo una pregunta', en: 'I have a question' },
            synonyms: ['pregunta', 'question', 'tengo una duda', 'i have a doubt'],
          },
        ],
      },
      next: { question: 'question', '*': 'home' },
    },
    {
      id: 'question',
      say: [
        {
          es: 'Claro, pregúntame lo que quieras sobre Sparks: cómo crear un asistente, subir documentos, probarlo, publicarlo o los planes.',
          en: 'Sure, ask me anything about Sparks: how to create an assistant, upload documents, test it, publish it, or the plans.',
        },
      ],
      answer: { kind: 'help', choices: actions },
      next: 'question',
    },
  ],
};
