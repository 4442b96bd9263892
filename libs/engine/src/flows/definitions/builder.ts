import { texts } from '@sparks/core';
import type { Flow } from '../types';
import { TONE_CHOICES } from '../understanding/fields';

const PALETTE_HINT = texts('assistants.paletteHint');
const ICON_HINT = texts('assistants.iconHint');
const GREETING_HINT = texts('assistants.greetingHint');
/** The welcome message: typed, or kept with a button or by agreeing ("déjalo igual", "looks good"). */
const GREETING_ANSWER = {
  kind: 'text',
  min: 2,
  max: 300,
  keep: texts('assistants.greetingAnswer.keep'),
} as const;

/** A Spark's own chat: five objectives from a description to a published widget. */
export const builderFlow: Flow = {
  name: 'builder',
  objectivesKey: 'spark',
  objectives: [
    { id: 'business', title: texts('assistants.builder.objectives.business.title') },
    { id: 'knowledge', title: texts('assistants.builder.objectives.knowledge.title') },
    { id: 'look', title: texts('assistants.builder.objectives.look.title') },
    { id: 'test', title: texts('assistants.builder.objectives.test.title') },
    { id: 'deploy', title: texts('assistants.builder.objectives.deploy.title') },
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
      say: [texts('assistants.builder.intro.say.0')],
      answer: { kind: 'none' },
      next: 'business.name',
    },
    {
      id: 'business.name',
      objective: 'business',
      title: texts('assistants.builder.businessName.title'),
      say: [texts('assistants.builder.businessName.say.0')],
      // The name given in /new-spark is kept with a button, or by agreeing ("está bien así").
      answer: {
        kind: 'text',
        min: 2,
        max: 80,
        keep: texts('assistants.builder.businessName.keep'),
        name: true,
      },
      // Named in /new-spark already: done without asking (issue 18 item 2).
      givenBy: 'business',
      fact: 'name',
      field: 'name',
      hint: texts('assistants.builder.businessName.hint'),
      effects: [{ set: 'spark.name' }],
      confirm: texts('assistants.builder.businessName.confirm'),
      next: 'business.description',
    },
    {
      id: 'business.description',
      objective: 'business',
      title: texts('assistants.builder.businessDescription.title'),
      say: [texts('assistants.builder.businessDescription.say.0')],
      answer: { kind: 'text', min: 10, max: 800 },
      // Described in /new-spark already: done without asking (issue 18 item 2).
      givenBy: 'description',
      fact: 'description',
      field: 'description',
      hint: texts('assistants.builder.businessDescription.hint'),
      effects: [{ set: 'spark.option', key: 'description' }],
      next: 'business.tone',
    },
    {
      id: 'business.tone',
      objective: 'business',
      title: texts('assistants.builder.businessTone.title'),
      say: [texts('assistants.builder.businessTone.say.0')],
      answer: { kind: 'choice', choices: TONE_CHOICES },
      // Told in /new-spark already, with the rest of the business in one message.
      givenBy: 'tone',
      fact: 'tone',
      field: 'tone',
      hint: texts('assistants.builder.businessTone.hint'),
      effects: [{ set: 'spark.option', key: 'tone' }, { do: 'buildSysPrompt' }],
      confirm: texts('assistants.builder.businessTone.confirm'),
      next: 'knowledge.upload',
    },
    {
      id: 'knowledge.upload',
      objective: 'knowledge',
      title: texts('assistants.builder.knowledgeUpload.title'),
      say: [texts('assistants.builder.knowledgeUpload.say.0')],
      answer: {
        kind: 'event',
        event: 'document.completed',
        skippable: true,
        choices: [{ value: 'skip', label: texts('assistants.builder.knowledgeUpload.skip.label') }],
      },
      hint: texts('assistants.builder.knowledgeUpload.hint'),
      next: 'look.language',
    },
    {
      id: 'look.language',
      objective: 'look',
      title: texts('assistants.builder.lookLanguage.title'),
      say: [texts('assistants.builder.lookLanguage.say.0')],
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
      title: texts('assistants.builder.lookPalette.title'),
      say: [texts('assistants.builder.lookPalette.say.0')],
      answer: { kind: 'palette' },
      field: 'palette',
      hint: PALETTE_HINT,
      effects: [{ set: 'spark.palette' }],
      next: 'look.icon',
    },
    {
      id: 'look.icon',
      objective: 'look',
      title: texts('assistants.builder.lookIcon.title'),
      say: [texts('assistants.builder.lookIcon.say.0')],
      answer: { kind: 'icon' },
      field: 'icon',
      hint: ICON_HINT,
      effects: [{ set: 'spark.icon' }],
      next: 'look.initialMessage',
    },
    {
      id: 'look.initialMessage',
      objective: 'look',
      title: texts('assistants.builder.lookInitialMessage.title'),
      say: [texts('assistants.builder.lookInitialMessage.say.0')],
      answer: GREETING_ANSWER,
      field: 'greeting',
      hint: GREETING_HINT,
      effects: [{ set: 'spark.initialMessage' }],
      next: 'look.preview',
    },
    {
      id: 'look.preview',
      objective: 'look',
      title: texts('assistants.builder.lookPreview.title'),
      // The preview's own caption says what it is; the message only asks (issue 18 item 6).
      say: [texts('assistants.builder.lookPreview.say.0')],
      show: 'widgetPreview',
      answer: { kind: 'yesno' },
      // "No": what to change, and the preview again after it (not the palette, the icon and the greeting again).
      next: { yes: 'test.create', no: 'look.change' },
    },
    {
      id: 'look.change',
      say: [texts('assistants.builder.lookChange.say.0')],
      answer: {
        kind: 'choice',
        widget: 'buttons',
        choices: [
          {
            value: 'palette',
            label: texts('assistants.builder.lookChange.palette.label'),
            synonyms: ['colores', 'colours', 'colors', 'color', 'colour', 'paleta', 'palette'],
          },
          { value: 'icon', label: texts('assistants.builder.lookChange.icon.label'), synonyms: ['icono', 'icon'] },
          {
            value: 'greeting',
            label: texts('assistants.builder.lookChange.greeting.label'),
            synonyms: ['saludo', 'mensaje', 'bienvenida', 'greeting', 'message', 'welcome'],
          },
          { value: 'done', label: texts('assistants.builder.lookChange.done.label'), synonyms: ['nada', 'nothing'] },
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
      say: [texts('assistants.builder.lookPaletteAgain.say.0')],
      answer: { kind: 'palette' },
      hint: PALETTE_HINT,
      effects: [{ set: 'spark.palette' }],
      next: 'look.preview',
    },
    {
      id: 'look.icon.again',
      say: [texts('assistants.builder.lookIconAgain.say.0')],
      answer: { kind: 'icon' },
      hint: ICON_HINT,
      effects: [{ set: 'spark.icon' }],
      next: 'look.preview',
    },
    {
      id: 'look.greeting.again',
      say: [texts('assistants.builder.lookGreetingAgain.say.0')],
      answer: GREETING_ANSWER,
      hint: GREETING_HINT,
      effects: [{ set: 'spark.initialMessage' }],
      next: 'look.preview',
    },
    {
      id: 'test.create',
      objective: 'test',
      title: texts('assistants.builder.testCreate.title'),
      say: [texts('assistants.builder.testCreate.say.0')],
      answer: {
        kind: 'choice',
        widget: 'buttons',
        choices: [
          {
            value: 'create',
            label: texts('assistants.builder.testCreate.create.label'),
            synonyms: ['crear', 'create', 'si', 'yes'],
          },
          { value: 'skip', label: texts('assistants.builder.testCreate.skip.label'), synonyms: ['saltar', 'skip'] },
        ],
      },
      effects: [{ do: 'createTest' }],
      next: 'test.judge',
    },
    {
      id: 'test.judge',
      objective: 'test',
      title: texts('assistants.builder.testJudge.title'),
      say: [texts('assistants.builder.testJudge.say.0')],
      answer: {
        kind: 'event',
        event: 'test.satisfactory',
        skippable: true,
        choices: [
          {
            value: 'open',
            label: texts('assistants.builder.testJudge.open.label'),
            goto: '/spark/{sparkId}/test/{testId}',
            when: 'hasTests',
          },
          { value: 'skip', label: texts('assistants.builder.testJudge.skip.label') },
        ],
      },
      next: 'deploy.publish',
    },
    {
      id: 'deploy.publish',
      objective: 'deploy',
      title: texts('assistants.builder.deployPublish.title'),
      // Publish is offered only when the plan allows it; otherwise why, and the plans (issue 31).
      say: [
        {
          when: 'canPublish',
          ...texts('assistants.builder.deployPublish.say.0'),
        },
        {
          when: 'publishNotIncluded',
          ...texts('assistants.builder.deployPublish.say.1'),
        },
        {
          when: 'publishFull',
          ...texts('assistants.builder.deployPublish.say.2'),
        },
      ],
      answer: {
        kind: 'event',
        event: 'spark.deployed',
        skippable: false,
        choices: [
          {
            value: 'deploy',
            label: texts('assistants.builder.deployPublish.deploy.label'),
            goto: '/deploy?q={sparkName}',
            when: 'canPublish',
          },
          {
            value: 'plans',
            label: texts('assistants.builder.deployPublish.plans.label'),
            goto: '/billing?showPlans=true',
            when: 'cannotPublish',
          },
          {
            value: 'manage',
            label: texts('assistants.builder.deployPublish.manage.label'),
            goto: '/deploy',
            when: 'publishFull',
          },
        ],
      },
      next: 'done',
    },
    {
      id: 'done',
      say: [texts('assistants.builder.done.say.0')],
      answer: { kind: 'none' },
      next: null,
    },
  ],
};
