import type { Flow } from '../types';

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
      effects: [{ set: 'spark.option', key: 'description' }],
      next: 'business.tone',
    },
    {
      id: 'business.tone',
      objective: 'business',
      title: { es: 'Tono', en: 'Tone' },
      say: [{ es: '¿Qué tono debe usar con tus clientes?', en: 'Which tone should it use with your customers?' }],
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'friendly',
            label: { es: 'Cercano', en: 'Friendly' },
            synonyms: ['amable', 'cercano', 'friendly', 'warm'],
          },
          {
            value: 'professional',
            label: { es: 'Profesional', en: 'Professional' },
            synonyms: ['formal', 'serio', 'professional'],
          },
          { value: 'fun', label: { es: 'Divertido', en: 'Fun' }, synonyms: ['divertido', 'informal', 'fun', 'casual'] },
        ],
      },
      // Told in /new-spark already, with the rest of the business in one message.
      givenBy: 'tone',
      fact: 'tone',
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
      effects: [{ set: 'spark.language' }, { do: 'buildSysPrompt' }],
      next: 'look.palette',
    },
    {
      id: 'look.palette',
      objective: 'look',
      title: { es: 'Colores', en: 'Colours' },
      say: [{ es: 'Elige una paleta de colores para el widget.', en: 'Pick a colour palette for the widget.' }],
      answer: { kind: 'palette' },
      effects: [{ set: 'spark.palette' }],
      next: 'look.icon',
    },
    {
      id: 'look.icon',
      objective: 'look',
      title: { es: 'Icono', en: 'Icon' },
      say: [{ es: 'Elige un icono.', en: 'Pick an icon.' }],
      answer: { kind: 'icon' },
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
      answer: { kind: 'text', min: 2, max: 300 },
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
      next: { yes: 'test.create', no: 'look.palette' },
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
      say: [
        {
          es: '¡«{sparkName}» está listo para publicarse en tu web!',
          en: '“{sparkName}” is ready to be published on your website!',
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
