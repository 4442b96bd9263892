import type { Flow } from '../types';

/** Creates a Spark from a short conversation, then hands over to its builder chat. */
export const newSparkFlow: Flow = {
  name: 'new-spark',
  start: 'business',
  steps: [
    {
      id: 'business',
      say: [
        {
          es: '¡Vamos a crear tu Spark! ¿Cómo se llama tu negocio?',
          en: "Let's create your Spark! What is your business called?",
        },
      ],
      answer: { kind: 'text', min: 2, max: 80 },
      fact: 'name',
      field: 'name',
      effects: [{ set: 'var', key: 'business' }],
      next: 'description',
    },
    {
      id: 'description',
      say: [
        {
          es: '¿A qué se dedica {business}? Cuéntamelo en una o dos frases.',
          en: 'What does {business} do? Tell me in a sentence or two.',
        },
      ],
      answer: { kind: 'text', min: 10, max: 800 },
      fact: 'description',
      field: 'description',
      effects: [{ set: 'var', key: 'description' }],
      next: 'purpose',
    },
    {
      id: 'purpose',
      say: [{ es: '¿Para qué quieres tu asistente?', en: 'What do you want your assistant for?' }],
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'questions',
            label: { es: 'Responder preguntas de clientes', en: 'Answer customer questions' },
            synonyms: ['preguntas', 'questions', 'faq', 'dudas'],
          },
          {
            value: 'sell',
            label: { es: 'Vender productos', en: 'Sell products' },
            synonyms: ['vender', 'ventas', 'sell', 'sales', 'shop', 'tienda'],
          },
          {
            value: 'bookings',
            label: { es: 'Gestionar reservas', en: 'Handle bookings' },
            synonyms: ['reservas', 'citas', 'bookings', 'appointments', 'reservations'],
          },
          {
            value: 'support',
            label: { es: 'Atención al cliente', en: 'Customer support' },
            synonyms: ['soporte', 'atención al cliente', 'support', 'ayuda', 'help desk'],
          },
        ],
      },
      effects: [{ set: 'var', key: 'purpose' }],
      next: 'language',
    },
    {
      id: 'language',
      say: [
        { es: '¿En qué idioma hablará con tus clientes?', en: 'Which language will it speak with your customers?' },
      ],
      answer: { kind: 'language' },
      field: 'language',
      effects: [{ set: 'var', key: 'language' }],
      next: 'create',
    },
    {
      id: 'create',
      say: [{ es: 'Perfecto. Creando «{business}»…', en: 'Perfect. Creating “{business}”…' }],
      answer: { kind: 'none' },
      effects: [{ do: 'createSpark' }],
      next: 'created',
    },
    {
      id: 'created',
      say: [
        {
          es: '¡Listo! Tu Spark «{createdSparkName}» está creado. Sigamos en su chat: allí le añadiremos tus documentos, su estilo y lo probaremos.',
          en: "Done! Your Spark “{createdSparkName}” is created. Let's continue in its chat: there we'll add your documents and its style, and test it.",
        },
      ],
      answer: {
        kind: 'choice',
        widget: 'buttons',
        choices: [
          { value: 'open', label: { es: 'Ir a mi Spark', en: 'Go to my Spark' }, goto: '/spark/{createdSparkId}' },
        ],
      },
      next: 'created',
    },
  ],
};
