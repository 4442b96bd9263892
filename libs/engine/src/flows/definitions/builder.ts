import type { Flow } from '../types';
import { TONE_CHOICES } from '../understanding/fields';

const PALETTE_HINT = {
  es: 'Son los colores del botón y la ventana del chat en tu web. Puedes decir el nombre o el color: «verde», «el azul», «el segundo».',
  en: 'They are the colours of the chat button and window on your website. Say the name or the colour: “green”, “the blue one”, “the second”.',
};
const ICON_HINT = {
  es: 'Es el dibujo del botón que abre el chat en tu web. Elige uno de la lista; puedes cambiarlo cuando quieras.',
  en: 'It is the picture on the button that opens the chat on your website. Pick one from the list; you can change it at any time.',
};
const GREETING_HINT = {
  es: 'Es lo primero que leen tus visitantes al abrir el chat. Escríbelo tal cual, por ejemplo: «¡Hola! Soy el asistente de Panadería Sol, ¿en qué te ayudo?».',
  en: "It is the first thing visitors read when they open the chat. Write it as they will read it, for example: “Hi! I'm the Sol Bakery assistant, how can I help?”.",
};
/** The welcome message: typed, or kept with a button or by agreeing ("déjalo igual", "looks good"). */
const GREETING_ANSWER = {
  kind: 'text',
  min: 2,
  max: 300,
  keep: { es: 'Mantener el mensaje', en: 'Keep this message' },
} as const;

/** A Spark's own chat: five objectives from a description to a published widget. */
export const builderFlow: Flow = {
  name: 'builder',
  objectivesKey: 'spark',
  objectives: [
    { id: 'business', title: { es: 'Describe tu negocio', en: 'Describe your business' } },
    { id: 'knowledge', title: { es: 'Añade conocimiento', en: 'Add knowledge' } },
    { id: 'look', title: { es: 'Dale estilo', en: 'Look and feel' } },
    { id: 'test', title: { es: 'Pruébalo', en: 'Test it' } },
    { id: 'deploy', title: { es: 'Publícalo', en: 'Deploy it' } },
  ],
  start: 'intro',
  intents: [
    {
      phrases: [
        'ver instrucciones',
        'ver prompt',
        'mostrar instrucciones',
        'show instructions',
        'show prompt',
        'show the prompt',
        'show the instructions',
      ],
      action: 'showPrompt',
    },
    {
      phrases: [
        'cambiar instrucciones',
        'cambiar prompt',
        'editar instrucciones',
        'editar prompt',
        'change instructions',
        'edit instructions',
        'change prompt',
        'edit prompt',
      ],
      action: 'editPrompt',
    },
    {
      phrases: ['deshacer instrucciones', 'deshacer prompt', 'undo instructions', 'undo prompt'],
      action: 'undoPrompt',
    },
    {
      phrases: ['test not satisfactory', 'test no satisfactorio', 'prueba no satisfactoria'],
      action: 'testNotSatisfactory',
    },
    { phrases: ['test satisfactory', 'test satisfactorio', 'prueba satisfactoria'], action: 'testSatisfactory' },
    {
      phrases: [
        'create a new test',
        'create another test',
        'new test',
        'another test',
        'crear una prueba nueva',
        'crear una nueva prueba',
        'crear otra prueba',
        'nueva prueba',
        'otra prueba',
      ],
      action: 'newTest',
    },
    {
      // What the page sends after connecting Microsoft 365 (`q=sharepoint-conected`), and what people type.
      phrases: ['sharepoint', 'onedrive'].flatMap((service) => [
        `add a document from ${service}`,
        `add documents from ${service}`,
        `add a file from ${service}`,
        `import from ${service}`,
        `import a document from ${service}`,
        `anadir un documento de ${service}`,
        `anadir un documento desde ${service}`,
        `anadir documentos de ${service}`,
        `anadir un archivo de ${service}`,
        `importar de ${service}`,
        `importar desde ${service}`,
        `importar un documento de ${service}`,
      ]),
      action: 'browseSharing',
    },
  ],
  steps: [
    {
      id: 'intro',
      say: [
        {
          es: 'Vamos a preparar «{sparkName}». Te guiaré por cinco objetivos: describir tu negocio, añadir conocimiento, darle estilo, probarlo y publicarlo. Puedes escribir «ver instrucciones» en cualquier momento.',
          en: "Let's get “{sparkName}” ready. I'll guide you through five objectives: describe your business, add knowledge, give it a style, test it and publish it. You can type “show instructions” at any time.",
        },
      ],
      answer: { kind: 'none' },
      next: 'business.name',
    },
    {
      id: 'business.name',
      objective: 'business',
      title: { es: 'Nombre', en: 'Name' },
      say: [
        {
          es: '¿Qué nombre verán tus clientes? Ahora se llama «{sparkName}».',
          en: 'Which name will your customers see? It is called “{sparkName}” now.',
        },
      ],
      // The name given in /new-spark is kept with a button, or by agreeing ("está bien así").
      answer: {
        kind: 'text',
        min: 2,
        max: 80,
        keep: { es: 'Mantener «{sparkName}»', en: 'Keep “{sparkName}”' },
        name: true,
      },
      // Named in /new-spark already: done without asking (issue 18 item 2).
      givenBy: 'business',
      fact: 'name',
      field: 'name',
      hint: {
        es: 'Es el nombre que verán tus clientes en el chat de tu web, por ejemplo «Panadería Sol». Puedes cambiarlo cuando quieras.',
        en: 'It is the name your customers see in the chat on your website, for example “Sol Bakery”. You can change it at any time.',
      },
      effects: [{ set: 'spark.name' }],
      confirm: { es: 'Nombre guardado: {sparkName}.', en: 'Name saved: {sparkName}.' },
      next: 'business.description',
    },
    {
      id: 'business.description',
      objective: 'business',
      title: { es: 'Descripción', en: 'Description' },
      say: [
        {
          es: 'Describe tu negocio en una o dos frases: qué ofreces y a quién.',
          en: 'Describe your business in a sentence or two: what you offer and to whom.',
        },
      ],
      answer: { kind: 'text', min: 10, max: 800 },
      // Described in /new-spark already: done without asking (issue 18 item 2).
      givenBy: 'description',
      fact: 'description',
      field: 'description',
      hint: {
        es: 'Cuéntalo como se lo contarías a un cliente nuevo: qué vendes o haces, para quién y dónde. Por ejemplo: «Panadería de barrio en Salamanca con pan de masa madre y bollería».',
        en: 'Say it as you would to a new customer: what you sell or do, for whom and where. For example: “Neighbourhood bakery in Salamanca with sourdough bread and pastries”.',
      },
      effects: [{ set: 'spark.option', key: 'description' }],
      next: 'business.tone',
    },
    {
      id: 'business.tone',
      objective: 'business',
      title: { es: 'Tono', en: 'Tone' },
      say: [{ es: '¿Qué tono debe usar con tus clientes?', en: 'Which tone should it use with your customers?' }],
      answer: { kind: 'choice', choices: TONE_CHOICES },
      // Told in /new-spark already, with the rest of the business in one message.
      givenBy: 'tone',
      fact: 'tone',
      field: 'tone',
      hint: {
        es: 'Es cómo hablará tu Spark: cercano (amable y cálido), profesional (preciso y formal) o divertido (desenfadado).',
        en: 'It is how your Spark will talk: friendly (warm and kind), professional (precise and formal) or fun (light-hearted).',
      },
      effects: [{ set: 'spark.option', key: 'tone' }, { do: 'buildSysPrompt' }],
      confirm: {
        es: 'He escrito las instrucciones de tu Spark con lo que me has contado. Escribe «ver instrucciones» para leerlas o «cambiar instrucciones» para reescribirlas.',
        en: "I've written your Spark's instructions from what you told me. Type “show instructions” to read them or “change instructions” to rewrite them.",
      },
      next: 'knowledge.upload',
    },
    {
      id: 'knowledge.upload',
      objective: 'knowledge',
      title: { es: 'Sube tus documentos', en: 'Upload your documents' },
      say: [
        {
          es: 'Ahora sube tus documentos en PDF (hasta 10 MB cada uno) con el botón de adjuntar. Te diré qué he leído de cada uno.',
          en: "Now upload your documents as PDF (up to 10 MB each) with the attach button. I'll tell you what I read from each one.",
        },
      ],
      answer: {
        kind: 'event',
        event: 'document.completed',
        skippable: true,
        choices: [{ value: 'skip', label: { es: 'Saltar por ahora', en: 'Skip for now' } }],
      },
      hint: {
        es: 'Pulsa el clip junto al cuadro de mensaje y elige un PDF con texto (la carta, precios, horarios, preguntas frecuentes), de hasta 10 MB. Tu Spark responderá con lo que diga.',
        en: 'Press the paper clip next to the message box and choose a PDF with text (your menu, prices, opening hours, FAQs) of up to 10 MB. Your Spark answers from what it says.',
      },
      next: 'look.language',
    },
    {
      id: 'look.language',
      objective: 'look',
      title: { es: 'Idioma', en: 'Language' },
      say: [{ es: '¿En qué idioma responderá tu Spark?', en: 'Which language will your Spark answer in?' }],
      answer: { kind: 'language' },
      // Chosen in /new-spark already (it asks the language after the business).
      givenBy: 'business',
      field: 'language',
      effects: [{ set: 'spark.language' }, { do: 'buildSysPrompt' }],
      next: 'look.palette',
    },
    {
      id: 'look.palette',
      objective: 'look',
      title: { es: 'Colores', en: 'Colours' },
      say: [{ es: 'Elige una paleta de colores para el widget.', en: 'Pick a colour palette for the widget.' }],
      answer: { kind: 'palette' },
      field: 'palette',
      hint: PALETTE_HINT,
      effects: [{ set: 'spark.palette' }],
      next: 'look.icon',
    },
    {
      id: 'look.icon',
      objective: 'look',
      title: { es: 'Icono', en: 'Icon' },
      say: [{ es: 'Elige un icono.', en: 'Pick an icon.' }],
      answer: { kind: 'icon' },
      field: 'icon',
      hint: ICON_HINT,
      effects: [{ set: 'spark.icon' }],
      next: 'look.initialMessage',
    },
    {
      id: 'look.initialMessage',
      objective: 'look',
      title: { es: 'Mensaje de bienvenida', en: 'Welcome message' },
      say: [
        {
          es: '¿Con qué mensaje saludará a tus visitantes? Ahora dice: «{initialMessage}».',
          en: 'Which message will greet your visitors? Now it says: “{initialMessage}”.',
        },
      ],
      answer: GREETING_ANSWER,
      field: 'greeting',
      hint: GREETING_HINT,
      effects: [{ set: 'spark.initialMessage' }],
      next: 'look.preview',
    },
    {
      id: 'look.preview',
      objective: 'look',
      title: { es: 'Vista previa', en: 'Preview' },
      // The preview's own caption says what it is; the message only asks (issue 18 item 6).
      say: [{ es: '¿Te gusta cómo queda?', en: 'Do you like how it looks?' }],
      show: 'widgetPreview',
      answer: { kind: 'yesno' },
      // "No": what to change, and the preview again after it (not the palette, the icon and the greeting again).
      next: { yes: 'test.create', no: 'look.change' },
    },
    {
      id: 'look.change',
      say: [{ es: '¿Qué quieres cambiar?', en: 'What would you like to change?' }],
      answer: {
        kind: 'choice',
        widget: 'buttons',
        choices: [
          {
            value: 'palette',
            label: { es: 'Los colores', en: 'The colours' },
            synonyms: ['colores', 'colours', 'colors', 'color', 'colour', 'paleta', 'palette'],
          },
          { value: 'icon', label: { es: 'El icono', en: 'The icon' }, synonyms: ['icono', 'icon'] },
          {
            value: 'greeting',
            label: { es: 'El mensaje de bienvenida', en: 'The welcome message' },
            synonyms: ['saludo', 'mensaje', 'bienvenida', 'greeting', 'message', 'welcome'],
          },
          { value: 'done', label: { es: 'Nada, me gusta', en: 'Nothing, I like it' }, synonyms: ['nada', 'nothing'] },
        ],
      },
      next: {
        palette: 'look.palette.again',
        icon: 'look.icon.again',
        greeting: 'look.greeting.again',
        done: 'test.create',
      },
    },
    {
      id: 'look.palette.again',
      say: [{ es: 'Elige otra paleta de colores.', en: 'Pick another colour palette.' }],
      answer: { kind: 'palette' },
      hint: PALETTE_HINT,
      effects: [{ set: 'spark.palette' }],
      next: 'look.preview',
    },
    {
      id: 'look.icon.again',
      say: [{ es: 'Elige otro icono.', en: 'Pick another icon.' }],
      answer: { kind: 'icon' },
      hint: ICON_HINT,
      effects: [{ set: 'spark.icon' }],
      next: 'look.preview',
    },
    {
      id: 'look.greeting.again',
      say: [
        {
          es: 'Escribe el nuevo mensaje de bienvenida. Ahora dice: «{initialMessage}».',
          en: 'Write the new welcome message. Now it says: “{initialMessage}”.',
        },
      ],
      answer: GREETING_ANSWER,
      hint: GREETING_HINT,
      effects: [{ set: 'spark.initialMessage' }],
      next: 'look.preview',
    },
    {
      id: 'test.create',
      objective: 'test',
      title: { es: 'Crea una prueba', en: 'Create a test' },
      say: [
        {
          es: 'Es hora de probarlo. Crearé una prueba para que le hagas preguntas como lo haría un cliente.',
          en: "Time to test it. I'll create a test so you can ask it questions the way a customer would.",
        },
      ],
      answer: {
        kind: 'choice',
        widget: 'buttons',
        choices: [
          {
            value: 'create',
            label: { es: 'Crear una prueba', en: 'Create a test' },
            synonyms: ['crear', 'create', 'si', 'yes'],
          },
          { value: 'skip', label: { es: 'Saltar', en: 'Skip' }, synonyms: ['saltar', 'skip'] },
        ],
      },
      effects: [{ do: 'createTest' }],
      next: 'test.judge',
    },
    {
      id: 'test.judge',
      objective: 'test',
      title: { es: 'Valora la prueba', en: 'Judge the test' },
      say: [
        {
          es: 'Abre la prueba, haz tus preguntas y, al terminar, dime si ha ido bien.',
          en: 'Open the test, ask your questions and, when you are done, tell me whether it went well.',
        },
      ],
      answer: {
        kind: 'event',
        event: 'test.satisfactory',
        skippable: true,
        choices: [
          {
            value: 'open',
            label: { es: 'Abrir la prueba', en: 'Open the test' },
            goto: '/spark/{sparkId}/test/{testId}',
            when: 'hasTests',
          },
          { value: 'skip', label: { es: 'Saltar', en: 'Skip' } },
        ],
      },
      next: 'deploy.publish',
    },
    {
      id: 'deploy.publish',
      objective: 'deploy',
      title: { es: 'Publica tu Spark', en: 'Publish your Spark' },
      // Publish is offered only when the plan allows it; otherwise why, and the plans (issue 31).
      say: [
        {
          when: 'canPublish',
          es: '¡«{sparkName}» está listo para publicarse en tu web!',
          en: '“{sparkName}” is ready to be published on your website!',
        },
        {
          when: 'publishNotIncluded',
          es: '«{sparkName}» está listo, pero tu plan no incluye Sparks publicados. Elige un plan para publicarlo en tu web.',
          en: '“{sparkName}” is ready, but your plan does not include published Sparks. Choose a plan to publish it on your website.',
        },
        {
          when: 'publishFull',
          es: '«{sparkName}» está listo, pero ya tienes publicados todos los Sparks que permite tu plan. Despublica alguno en Desplegar o mejora tu plan para publicar este.',
          en: '“{sparkName}” is ready, but all the published Sparks your plan allows are in use. Unpublish one on Deploy or upgrade your plan to publish this one.',
        },
      ],
      answer: {
        kind: 'event',
        event: 'spark.deployed',
        skippable: false,
        choices: [
          {
            value: 'deploy',
            label: { es: 'Publicar {sparkName}', en: 'Publish {sparkName}' },
            goto: '/deploy?q={sparkName}',
            when: 'canPublish',
          },
          {
            value: 'plans',
            label: { es: 'Ver los planes', en: 'See the plans' },
            goto: '/billing?showPlans=true',
            when: 'cannotPublish',
          },
          {
            value: 'manage',
            label: { es: 'Ir a Desplegar', en: 'Go to Deploy' },
            goto: '/deploy',
            when: 'publishFull',
          },
        ],
      },
      next: 'done',
    },
    {
      id: 'done',
      say: [
        {
          es: '¡Todo listo! Tu Spark ya atiende a tus clientes.',
          en: 'All set! Your Spark is now serving your customers.',
        },
      ],
      answer: { kind: 'none' },
      next: null,
    },
  ],
};
