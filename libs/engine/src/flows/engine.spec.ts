import { actionDataSchema } from '@sparks/contracts';
import { readBusiness } from './business';
import { FlowEngine } from './engine';
import type {
  AccountPort,
  BillingSummary,
  DeployPort,
  FlowOutput,
  FlowPorts,
  HelpPort,
  ModelPort,
  NewSpark,
  ObjectivesPort,
  Profile,
  SparkInfo,
  SparkPort,
  TestsPort,
} from './ports';
import { FLOWS } from './index';
import type { Flow, StepStatus } from './types';
import type { ModelReading } from './understanding';

/** A conversation's state as stored before issue 31 (version 1): the engine reads and migrates it. */
type FlowState = { flow: string; step: string | null; vars: Record<string, string>; awaiting?: string };

/** Names and texts a hostile user may give: they must show as typed in the assistants' markdown. */
const HOSTILE = '<img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1) ![t](http://127.0.0.2:9/x.png)';
const HOSTILE_MD =
  '\\<img src=x onerror=window.\\_\\_pwned=1\\> \\[x\\](javascript:window.\\_\\_pwned=1) !\\[t\\](http\\://127.0.0.2:9/x.png)';
/** One that fits the 80 characters of a name typed in the chat. */
const SHORT = '*[x](javascript:window.__pwned=1)* <img src=x>';
const SHORT_MD = '\\*\\[x\\](javascript:window.\\_\\_pwned=1)\\* \\<img src=x\\>';

/** The database the flows see, in memory: one user and at most one Spark. */
class MemoryPorts implements FlowPorts {
  readonly statuses = new Map<string, StepStatus>();

  constructor(
    public user: Profile,
    public current?: SparkInfo,
  ) {}

  profile = () => Promise.resolve(this.user);
  updateProfile = (patch: Partial<Profile>) => {
    this.user = { ...this.user, ...patch };
    return Promise.resolve();
  };
  spark = () => Promise.resolve(this.current);
  updateSpark = (patch: Partial<Omit<SparkInfo, 'id'>>) => {
    if (this.current) this.current = { ...this.current, ...patch };
    return Promise.resolve();
  };
  createSpark = (v: NewSpark): Promise<{ id: string; name: string } | { limit: number }> => {
    this.current = { id: 's1', name: v.name, initialMessage: 'Hola', language: v.language, sysPrompt: '' };
    return Promise.resolve({ id: 's1', name: v.name });
  };
  newestSpark = () => Promise.resolve(this.current && { id: this.current.id, name: this.current.name });
  countTests = () => Promise.resolve(0);
  createTest = (): Promise<string | undefined> => Promise.resolve(undefined);
  stepStatus = (id: string) => Promise.resolve(this.statuses.get(id));
  setStepStatus = (id: string, status: StepStatus) => {
    this.statuses.set(id, status);
    return Promise.resolve();
  };
  billingSummary: BillingSummary = {
    plan: 'Free Plan',
    paid: false,
    trialActive: true,
    trialDaysLeft: 12,
    usage: 7,
    limit: 100,
    credits: 0,
    plans: [
      {
        name: 'Ruby',
        unitAmount: 4500,
        currency: 'eur',
        interactions: 600,
        deployments: 1,
        sparks: 5,
        documents: 10,
        documentSharing: false,
      },
      {
        name: 'Zaphire',
        unitAmount: 18000,
        currency: 'eur',
        interactions: 4000,
        deployments: 10,
        sparks: 20,
        documents: 50,
        documentSharing: true,
      },
    ],
  };
  /** What the model writes for the instructions (undefined: no model, or it failed); the Sparks it was asked for. */
  written: string | undefined = undefined;
  writtenFor: SparkInfo[] = [];
  published: Array<{ sparkId: string; name: string }> = [];
  deploymentLimit = 1;
  revoked: string[] = [];

  // The ports, one per concern, on the fields above (a test may replace a method such as `createSpark`).
  account: AccountPort = {
    profile: () => this.profile(),
    updateProfile: (patch) => this.updateProfile(patch),
    deactivate: () => Promise.resolve(),
    billing: () => Promise.resolve(this.billingSummary),
  };
  sparks: SparkPort = {
    current: () => this.spark(),
    update: (patch) => this.updateSpark(patch),
    create: (v) => this.createSpark(v),
    newest: () => this.newestSpark(),
  };
  tests: TestsPort = { count: () => this.countTests(), create: () => this.createTest() };
  objectives: ObjectivesPort = {
    status: (id) => this.stepStatus(id),
    setStatus: (id, status) => this.setStepStatus(id, status),
  };
  help: HelpPort = { answer: () => Promise.resolve('help') };
  model: ModelPort = {
    readBusiness: (text) => Promise.resolve(readBusiness(text)),
    writeInstructions: (spark) => {
      this.writtenFor.push(spark);
      return Promise.resolve(this.written);
    },
    readReply: (input) => {
      this.askedModel.push(input);
      return Promise.resolve(this.modelReading);
    },
  };
  /** What the model answers when a reply is not clear to the rules (undefined: no model); what it was asked. */
  modelReading: ModelReading | undefined = undefined;
  askedModel: Array<{ instructions: string; step: Record<string, unknown>; reply: string }> = [];
  deploy: DeployPort = {
    allowance: () =>
      Promise.resolve({
        limit: this.deploymentLimit,
        used: this.published.length,
        published: this.published.some((p) => p.sparkId === this.current?.id),
      }),
    published: () => Promise.resolve([...this.published]),
    unpublish: (sparkId) => {
      const before = this.published.length;
      this.published = this.published.filter((p) => p.sparkId !== sparkId);
      return Promise.resolve(
        before === this.published.length ? undefined : { used: this.published.length, limit: this.deploymentLimit },
      );
    },
    revokeToken: (sparkId) => {
      const found = this.published.some((p) => p.sparkId === sparkId);
      if (found) this.revoked.push(sparkId);
      return Promise.resolve(found);
    },
  };
}

const engine = new FlowEngine(FLOWS);
const profile = (over: Partial<Profile> = {}): Profile => ({
  firstname: 'Ana',
  lastname: '',
  username: 'ana@example.com',
  language: 'en',
  plan: 'Free Plan',
  ...over,
});
const hostileSpark = (): SparkInfo => ({
  id: 'spark-1',
  name: HOSTILE,
  initialMessage: `Hi! ${HOSTILE}`,
  language: 'en',
  sysPrompt: `You are ${HOSTILE}.`,
});

/** Every action the engine sends must be a widget or an event of the contracts (`@sparks/contracts` chat.ts). */
function expectContracts(outputs: FlowOutput[]): void {
  for (const o of outputs) if (o.type === 'action') expect(actionDataSchema.parse(o.data)).toEqual(o.data);
}

async function say(flow: string, text: string, ports: MemoryPorts, state?: object, language: 'es' | 'en' = 'en') {
  const result = await engine.run(flow, text, { language, state, ports });
  expectContracts(result.outputs);
  return result;
}
const texts = (outputs: FlowOutput[]) => outputs.flatMap((o) => (o.type === 'ai' ? [o.data.content] : []));
/** The actions, their data read as plain records (the contracts' check is `expectContracts`). */
const widgets = (outputs: FlowOutput[]): Array<{ type: 'action'; data: Record<string, unknown> }> =>
  outputs.flatMap((o) => (o.type === 'action' ? [o] : []));

describe('what the flows send', () => {
  it('every step of every flow, in both languages, sends widgets and events as the contracts define them', async () => {
    let actions = 0;
    for (const flow of FLOWS) {
      for (const step of flow.steps) {
        for (const language of ['es', 'en'] as const) {
          const spark: SparkInfo = {
            ...hostileSpark(),
            palette: { name: 'ocean', primary: '#0a66c2', secondary: '#e8f1fb' },
            icon: '🤖',
          };
          const ports = new MemoryPorts(profile({ language }), spark);
          // The start keyword on a step asks that step again: its text, its widget and what it shows.
          const state: FlowState = { flow: flow.name, step: step.id, vars: {} };
          const { outputs } = await say(flow.name, 'inicio', ports, state, language);
          actions += outputs.filter((o) => o.type === 'action').length;
        }
      }
    }
    expect(actions).toBeGreaterThan(20);
  });
});

describe('the assistants put what users control into their markdown as typed', () => {
  it('the builder says the Spark’s name escaped, and keeps it as it is in buttons and cards', async () => {
    const ports = new MemoryPorts(profile(), hostileSpark());
    const opened = await say('builder', 'start', ports);
    expect(texts(opened.outputs)).toEqual([
      expect.stringContaining(`Let's get “${HOSTILE_MD}” ready.`),
      `Which name will your customers see? It is called “${HOSTILE_MD}” now.`,
    ]);

    const card = await say('builder', 'show instructions', ports, opened.state);
    // A card is text in the page, not markdown: the instructions show as they are.
    expect(widgets(card.outputs)).toEqual([
      {
        type: 'action',
        data: expect.objectContaining({
          type: 'card',
          info: [{ label: 'Instructions', value: `You are ${HOSTILE}.` }],
        }) as unknown,
      },
    ]);
  });

  it('confirms a new name escaped', async () => {
    const ports = new MemoryPorts(profile(), { ...hostileSpark(), name: 'Tienda' });
    const opened = await say('builder', 'start', ports);
    const named = await say('builder', SHORT, ports, opened.state);
    expect(ports.current?.name).toBe(SHORT);
    expect(texts(named.outputs)[0]).toBe(`Name saved: ${SHORT_MD}.`);
  });

  it('quotes the greeting escaped when asking for a new one', async () => {
    const ports = new MemoryPorts(profile(), hostileSpark());
    const state: FlowState = { flow: 'builder', step: 'look.icon', vars: {} };
    const next = await say('builder', 'Robot', ports, state);
    expect(texts(next.outputs)).toContain(`Which message will greet your visitors? Now it says: “Hi! ${HOSTILE_MD}”.`);
  });

  it('opens the deploy page with the name as one query value', async () => {
    const ports = new MemoryPorts(profile(), { ...hostileSpark(), name: 'Pan & Co #1?' });
    ports.statuses.set('knowledge.upload', 'completed');
    const state: FlowState = { flow: 'builder', step: 'test.judge', vars: {} };
    const next = await say('builder', 'skip', ports, state);
    const buttons = widgets(next.outputs).find((o) => o.data.type === 'buttons');
    expect(buttons?.data.buttons).toEqual([
      { label: 'Publish Pan & Co #1?', goto: '/deploy?q=Pan%20%26%20Co%20%231%3F' },
    ]);
    expect(texts(next.outputs)).toContain('“Pan \\& Co #1?” is ready to be published on your website!');
  });

  it('the new-Spark assistant repeats the business name escaped', async () => {
    const ports = new MemoryPorts(profile());
    const opened = await say('new-spark', 'start', ports);
    const named = await say('new-spark', SHORT, ports, opened.state);
    expect(texts(named.outputs)).toEqual([`What does ${SHORT_MD} do? Tell me in a sentence or two.`]);
  });

  it('the new-Spark assistant says the plan’s Spark limit, offers the plans and tries again on the next message', async () => {
    const ports = new MemoryPorts(profile());
    let limit: number | undefined = 5;
    const create = ports.createSpark;
    ports.createSpark = (v) => (limit === undefined ? create(v) : Promise.resolve({ limit }));
    let result = await say('new-spark', 'start', ports);
    for (const answer of ['Bakery', 'We bake bread every morning.', 'Sales', 'English']) {
      result = await say('new-spark', answer, ports, result.state);
    }
    expect(texts(result.outputs)).toContain(
      'Your plan allows up to 5 Sparks and you already have them. Delete one from the sidebar or upgrade your plan, then write to me again and I will create it.',
    );
    expect(widgets(result.outputs).at(-1)?.data.buttons).toEqual([
      { label: 'See the plans', goto: '/billing?showPlans=true' },
    ]);
    expect(result.state.step).toBe('create');
    expect(ports.current).toBeUndefined();
    limit = undefined;
    const retried = await say('new-spark', 'try again', ports, result.state);
    expect(ports.current?.name).toBe('Bakery');
    expect(retried.state.step).toBe('created');
  });

  it('the profile assistant says a first name escaped', async () => {
    const ports = new MemoryPorts(profile());
    const card = await say('profile', 'start', ports);
    const asked = await say('profile', 'firstname', ports, card.state);
    const named = await say('profile', '**Ana** <b>', ports, asked.state);
    expect(texts(named.outputs)[0]).toBe('Done, \\*\\*Ana\\*\\* \\<b\\>.');
  });

  it('the chat home does not greet again (the welcome bubble does) and names the newest Spark as it is in its button', async () => {
    const ports = new MemoryPorts(profile({ firstname: '', username: 'baker.mob1@example.com' }), hostileSpark());
    const home = await say('main', 'start', ports);
    expect(texts(home.outputs)).toEqual([
      'I can help with anything about Sparks: pick an option or type your question.',
    ]);
    expect(texts(home.outputs).join(' ')).not.toContain('@');
    // Nor does it repeat the bubble's actions right under it; it offers them after answering a question.
    expect(widgets(home.outputs)).toEqual([]);
    const answered = await say('main', 'What is a Spark?', ports, home.state);
    expect(widgets(answered.outputs)[0].data.buttons).toContainEqual({
      label: `Open ${HOSTILE}`,
      goto: '/spark/spark-1',
    });
  });

  it('lists the choices escaped when it did not understand the answer', async () => {
    // No product flow names a user's text in a choice today; the engine must still escape one.
    const custom = new FlowEngine([
      {
        name: 'pick',
        start: 'ask',
        steps: [
          {
            id: 'ask',
            say: [{ es: '¿Cuál?', en: 'Which one?' }],
            answer: {
              kind: 'choice',
              choices: [
                { value: 'spark', label: { es: '{sparkName}', en: '{sparkName}' } },
                { value: 'other', label: { es: 'Otro', en: 'Another' } },
              ],
            },
            next: null,
          },
        ],
      },
    ]);
    const ports = new MemoryPorts(profile(), hostileSpark());
    const opened = await custom.run('pick', 'start', { language: 'en', state: undefined, ports });
    expect(widgets(opened.outputs)[0].data.options).toEqual([
      { label: HOSTILE, value: 'spark' },
      { label: 'Another', value: 'other' },
    ]);
    const reasked = await custom.run('pick', 'neither', { language: 'en', state: opened.state, ports });
    expect(texts(reasked.outputs)).toEqual([`I didn't quite get that. Please choose one of: ${HOSTILE_MD}, Another.`]);
  });
});

describe('the builder as a new user met it (issue 18)', () => {
  it('says what the preview is once: the caption, not the message too (item 6)', async () => {
    const ports = new MemoryPorts(profile(), { ...hostileSpark(), name: 'Panadería Sol' });
    const state: FlowState = { flow: 'builder', step: 'look.initialMessage', vars: {} };
    const next = await say('builder', 'Hola, ¿en qué te ayudo?', ports, state);
    const preview = widgets(next.outputs).find((o) => o.data.type === 'widgetPreview');
    expect(preview?.data.title).toBe('This is how your Spark will look');
    expect(texts(next.outputs).join(' ')).not.toContain('This is how your Spark will look');
    expect(texts(next.outputs)).toContain('Do you like how it looks?');
  });

  it('shows the default plan in the user card in the reader’s language (item 14)', async () => {
    const ports = new MemoryPorts(profile({ plan: 'Free Plan' }));
    const card = await engine.run('profile', 'inicio', { language: 'es', state: undefined, ports });
    const userCard = widgets(card.outputs).find((o) => o.data.type === 'userCard');
    expect(userCard?.data.info).toContainEqual({ type: 'Plan', result: 'Plan gratuito' });
  });

  it('sends the profile card and its options in both languages, so that a language switch turns them (issue 34 item 3)', async () => {
    const ports = new MemoryPorts(profile({ language: 'en', plan: 'Free Plan' }));
    const opened = await engine.run('profile', 'start', { language: 'en', state: undefined, ports });
    // The question too: the engine's own texts carry how they read in the other language.
    expect(opened.outputs[0]).toEqual({
      type: 'ai',
      data: {
        content: 'These are your details. What would you like to change?',
        i18n: { es: { content: 'Estos son tus datos. ¿Qué quieres cambiar?' } },
      },
    });
    const [card, options] = widgets(opened.outputs).map((w) => w.data);
    expect(card).toMatchObject({ type: 'userCard', title: 'Your details' });
    expect(card.info).toContainEqual({ type: 'Language', result: 'English' });
    const spanishCard = (card.i18n as Record<string, { title: string; info: unknown[] }>).es;
    expect(spanishCard.title).toBe('Tus datos');
    // Read in Spanish, the account's language is Spanish (one setting): the card says so.
    expect(spanishCard.info).toContainEqual({ type: 'Idioma', result: 'Español' });
    expect(spanishCard.info).toContainEqual({ type: 'Plan', result: 'Plan gratuito' });
    expect(options).toMatchObject({
      type: 'options',
      options: expect.arrayContaining([{ label: 'My language', value: 'language' }]),
    });
    // The same values in Spanish: what is sent does not depend on the language shown.
    expect(options.i18n).toEqual({
      es: {
        options: [
          { label: 'Mi nombre', value: 'firstname' },
          { label: 'Mis apellidos', value: 'lastname' },
          { label: 'Mi idioma', value: 'language' },
          { label: 'Nada, está bien así', value: 'done' },
        ],
      },
    });
  });

  it('keeps the name on "Keep", and on agreement or refusal phrases, instead of taking them as the name (item 1)', async () => {
    for (const phrase of ['keep', 'está bien así', "that's fine", 'no', 'vale']) {
      const ports = new MemoryPorts(profile(), { ...hostileSpark(), name: 'Panadería Sol' });
      const opened = await say('builder', 'start', ports);
      expect(widgets(opened.outputs).at(-1)?.data).toMatchObject({
        type: 'buttons',
        buttons: [{ label: 'Keep “Panadería Sol”', value: 'keep' }],
      });
      const next = await say('builder', phrase, ports, opened.state);
      expect(ports.current?.name).toBe('Panadería Sol');
      expect(texts(next.outputs)[0]).toBe('All right, it stays “Panadería Sol”.');
      expect(next.state.step).toBe('business.description');
      expect(ports.statuses.get('business.name')).toBe('completed');
    }
  });

  it('confirms a value that does not look like a name before using it (item 1)', async () => {
    const ports = new MemoryPorts(profile(), { ...hostileSpark(), name: 'Tienda' });
    const opened = await say('builder', 'start', ports);
    const asked = await say('builder', 'put something catchy with bread in it here', ports, opened.state);
    expect(ports.current?.name).toBe('Tienda');
    expect(texts(asked.outputs)).toEqual(['Do you want to call it “put something catchy with bread in it here”?']);
    const refused = await say('builder', 'no', ports, asked.state);
    expect(ports.current?.name).toBe('Tienda');
    expect(texts(refused.outputs)).toEqual(['All right. Which name should it have?']);
    const renamed = await say('builder', 'Panadería Sol', ports, refused.state);
    expect(ports.current?.name).toBe('Panadería Sol');
    expect(renamed.state.step).toBe('business.description');
  });

  it('does not ask again what /new-spark answered: name, description and language are done (item 2)', async () => {
    const ports = new MemoryPorts(profile(), {
      ...hostileSpark(),
      name: 'Panadería Sol',
      business: 'Panadería Sol',
      description: 'Pan de masa madre en Salamanca',
    });
    const opened = await say('builder', 'start', ports);
    expect(texts(opened.outputs).join(' ')).not.toContain('Which name');
    expect(texts(opened.outputs).at(-1)).toBe('Which tone should it use with your customers?');
    expect(ports.statuses.get('business.name')).toBe('completed');
    expect(ports.statuses.get('business.description')).toBe('completed');
    const toned = await say('builder', 'friendly', ports, opened.state);
    expect(toned.state.step).toBe('knowledge.upload');
    const skipped = await say('builder', 'skip', ports, toned.state);
    expect(texts(skipped.outputs).join(' ')).not.toContain('Which language');
    expect(ports.statuses.get('look.language')).toBe('completed');
    expect(skipped.state.step).toBe('look.palette');
  });

  it('goes on after a document is read without "let\'s pick up where we left off", which stays for a real return', async () => {
    const ports = new MemoryPorts(profile(), {
      ...hostileSpark(),
      business: 'Panadería Sol',
      description: 'Pan de masa madre en Salamanca',
    });
    const waiting: FlowState = { flow: 'builder', step: 'knowledge.upload', vars: {} };
    // The page sends the start keyword when the upload it showed has been read (issue 18 walk).
    ports.statuses.set('knowledge.upload', 'completed');
    const read = await say('builder', 'inicio', ports, waiting);
    expect(texts(read.outputs)).not.toContain("Let's pick up where we left off.");
    expect(texts(read.outputs).at(-1)).toBe('Pick a colour palette for the widget.');
    // Still waiting (nothing read yet): the start keyword resumes, and says so.
    ports.statuses.delete('knowledge.upload');
    const back = await say('builder', 'inicio', ports, waiting);
    expect(texts(back.outputs)[0]).toBe("Let's pick up where we left off.");
  });

  it('"change instructions" shows the new ones, saves them only on yes, and can undo (item 4)', async () => {
    const ports = new MemoryPorts(profile(), { ...hostileSpark(), sysPrompt: 'Old instructions.' });
    const opened = await say('builder', 'start', ports);
    const asked = await say('builder', 'change instructions', ports, opened.state);
    const draft = await say('builder', 'You are the bakery assistant; answer briefly.', ports, asked.state);
    expect(ports.current?.sysPrompt).toBe('Old instructions.');
    expect(texts(draft.outputs)).toEqual(['These would be the new instructions. Save them?']);
    expect(widgets(draft.outputs).map((w) => w.data.type)).toEqual(['card', 'buttons']);

    const cancelled = await say('builder', 'no', ports, draft.state);
    expect(ports.current?.sysPrompt).toBe('Old instructions.');
    expect(texts(cancelled.outputs)[0]).toBe('Nothing changed: the instructions are as they were.');
    // The conversation goes on where it was.
    expect(texts(cancelled.outputs).at(-1)).toContain('Which name will your customers see?');

    const again = await say('builder', 'change instructions', ports, cancelled.state);
    const draft2 = await say('builder', 'You are the bakery assistant; answer briefly.', ports, again.state);
    const saved = await say('builder', 'yes', ports, draft2.state);
    expect(ports.current?.sysPrompt).toBe('You are the bakery assistant; answer briefly.');
    expect(texts(saved.outputs)[0]).toContain('saved the new instructions');
    expect(texts(saved.outputs).join(' ')).not.toContain('still waiting');

    const undone = await say('builder', 'undo instructions', ports, saved.state);
    expect(ports.current?.sysPrompt).toBe('Old instructions.');
    expect(texts(undone.outputs)[0]).toBe('Done: the previous instructions are back.');
  });
});

describe('a test that went badly', () => {
  /** The Spark's tests, kept as the worker's port does: at the limit it hands back the last one. */
  class TestPorts extends MemoryPorts {
    made: string[] = [];
    override countTests = () => Promise.resolve(this.made.length);
    override createTest = () => {
      if (this.made.length < 5) this.made.push(`t${this.made.length + 1}`);
      return Promise.resolve(this.made.at(-1));
    };
  }
  const judging: FlowState = { flow: 'builder', step: 'test.judge', vars: {} };

  it('"No" is followed by a button that creates a new test, in the owner’s language', async () => {
    for (const [language, button, other, otherButton] of [
      ['en', 'Create a new test', 'es', 'Crear una prueba nueva'],
      ['es', 'Crear una prueba nueva', 'en', 'Create a new test'],
    ] as const) {
      const ports = new TestPorts(profile({ language }), hostileSpark());
      const judged = await say('builder', 'test not satisfactory', ports, judging, language);
      expect(ports.statuses.get('test.judge')).toBe('error');
      // In the other language, the same button reads otherwise and sends the same value (issue 34 item 3).
      expect(widgets(judged.outputs).map((w) => w.data)).toEqual([
        {
          type: 'buttons',
          content: '',
          buttons: [{ label: button, value: button }],
          i18n: { [other]: { buttons: [{ label: otherButton, value: button }] } },
        },
      ]);

      // The button's value, sent as the owner's message: a new test, and the conversation waits for its verdict.
      const created = await say('builder', button, ports, judged.state, language);
      expect(ports.made).toEqual(['t1']);
      const actions = widgets(created.outputs).map((w) => w.data);
      expect(actions[0]).toMatchObject({ type: 'event', event: 'testCreated', testId: 't1' });
      expect(actions.at(-1)).toMatchObject({
        type: 'buttons',
        buttons: expect.arrayContaining([expect.objectContaining({ goto: '/spark/spark-1/test/t1' })]),
      });
      expect(created.state.step).toBe('test.judge');

      const passed = await say('builder', 'test satisfactory', ports, created.state, language);
      expect(ports.statuses.get('test.judge')).toBe('completed');
      expect(passed.state.step).toBe('deploy.publish');
    }
  });

  it('asked for elsewhere, makes the test and offers to open it without moving the conversation', async () => {
    const ports = new TestPorts(profile(), hostileSpark());
    const elsewhere: FlowState = { flow: 'builder', step: 'knowledge.upload', vars: {} };
    const created = await say('builder', 'new test', ports, elsewhere);
    expect(texts(created.outputs)).toEqual(['Here is a new test.']);
    expect(widgets(created.outputs).at(-1)?.data).toEqual({
      type: 'buttons',
      content: '',
      buttons: [{ label: 'Open the test', goto: '/spark/spark-1/test/t1' }],
      i18n: { es: { buttons: [{ label: 'Abrir la prueba', goto: '/spark/spark-1/test/t1' }] } },
    });
    expect(created.state.step).toBe('knowledge.upload');
  });

  it('at five tests says so, instead of reopening an old one', async () => {
    const ports = new TestPorts(profile({ language: 'es' }), hostileSpark());
    ports.made = ['t1', 't2', 't3', 't4', 't5'];
    const refused = await say('builder', 'crear una prueba nueva', ports, judging, 'es');
    expect(texts(refused.outputs)).toEqual([
      'Tu Spark ya tiene 5 pruebas, el máximo: borra una en la barra de pestañas de arriba y vuelve a pedírmelo.',
    ]);
    expect(widgets(refused.outputs)).toEqual([]);
    expect(ports.made).toHaveLength(5);
  });
});

describe('the builder understands a free description of the business (issue 17 item 4)', () => {
  const fresh = (language: 'es' | 'en'): SparkInfo => ({
    id: 'spark-1',
    name: language === 'en' ? 'My Spark' : 'Mi Spark',
    initialMessage: 'Hi',
    language,
    sysPrompt: '',
  });

  it('fills name, description, tone and hours from one message, after confirming what it understood', async () => {
    const ports = new MemoryPorts(profile(), fresh('en'));
    const opened = await say('builder', 'start', ports);
    expect(opened.state.step).toBe('business.name');
    const told = await say(
      'builder',
      'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone',
      ports,
      opened.state,
    );
    // Nothing is saved before the owner agrees.
    expect(ports.current!.name).toBe('My Spark');
    expect(texts(told.outputs)).toEqual(['This is what I understood from your message. Is it right?']);
    expect(widgets(told.outputs).map((w) => w.data)).toEqual([
      {
        type: 'card',
        content: '',
        title: 'Your business',
        info: [
          { label: 'Name', value: 'Espiga' },
          { label: 'Description', value: 'A bakery in Madrid' },
          { label: 'Tone', value: 'warm and friendly' },
          { label: 'Opening hours', value: 'Open Monday to Saturday 8 to 20' },
        ],
        // What the owner wrote stays as written; the card's own words read in each language.
        i18n: {
          es: {
            title: 'Tu negocio',
            info: [
              { label: 'Nombre', value: 'Espiga' },
              { label: 'Descripción', value: 'A bakery in Madrid' },
              { label: 'Tono', value: 'cercano y amable' },
              { label: 'Horario', value: 'Open Monday to Saturday 8 to 20' },
            ],
          },
        },
      },
      expect.objectContaining({ type: 'buttons' }),
    ]);

    const yes = await say('builder', 'yes', ports, told.state);
    expect(ports.current).toMatchObject({
      name: 'Espiga',
      description: 'A bakery in Madrid',
      tone: 'friendly',
      hours: 'Open Monday to Saturday 8 to 20',
    });
    expect(ports.current!.sysPrompt).toBe(
      'You are Espiga, the assistant of Espiga on its website. The business: A bakery in Madrid. ' +
        'Opening hours: Open Monday to Saturday 8 to 20. Speak English in a warm and friendly tone. ' +
        "Answer only with the information in the business's documents; when you don't have it, say so plainly " +
        'and offer to pass the question on. Never invent prices, dates or policies.',
    );
    for (const step of ['business.name', 'business.description', 'business.tone'])
      expect(ports.statuses.get(step)).toBe('completed');
    // On with the first step it did not answer: the documents.
    expect(yes.state.step).toBe('knowledge.upload');
    expect(texts(yes.outputs)[0]).toContain("I've written your Spark's instructions");
    expect(widgets(yes.outputs)[0].data).toMatchObject({ type: 'card', info: [{ value: ports.current!.sysPrompt }] });
  });

  it('in Spanish, asks the tone it was not told; “no” goes on step by step with nothing saved', async () => {
    const ports = new MemoryPorts(profile({ language: 'es' }), fresh('es'));
    const opened = await say('builder', 'inicio', ports, undefined, 'es');
    const told = await say('builder', 'Somos Espiga, una panadería en Madrid', ports, opened.state, 'es');
    expect(told.state.dialog?.name).toBe('businessConfirm');
    const yes = await say('builder', 'sí', ports, told.state, 'es');
    expect(ports.current).toMatchObject({ name: 'Espiga', description: 'Una panadería en Madrid' });
    expect(yes.state.step).toBe('business.tone');
    expect(texts(yes.outputs).at(-1)).toBe('¿Qué tono debe usar con tus clientes?');

    const other = new MemoryPorts(profile({ language: 'es' }), fresh('es'));
    const first = await say('builder', 'inicio', other, undefined, 'es');
    const again = await say('builder', 'Somos Espiga, una panadería en Madrid', other, first.state, 'es');
    const no = await say('builder', 'no', other, again.state, 'es');
    expect(other.current!.name).toBe('Mi Spark');
    expect(no.state.step).toBe('business.name');
    expect(texts(no.outputs)[0]).toBe('De acuerdo, vamos paso a paso.');
  });

  it('a plain answer is taken as today: a short name, or a description that says only that', async () => {
    const ports = new MemoryPorts(profile(), fresh('en'));
    const opened = await say('builder', 'start', ports);
    const named = await say('builder', 'Espiga', ports, opened.state);
    expect(ports.current!.name).toBe('Espiga');
    expect(named.state.step).toBe('business.description');
    const described = await say('builder', 'We bake sourdough bread and pastries every morning', ports, named.state);
    expect(ports.current!.description).toBe('We bake sourdough bread and pastries every morning');
    expect(described.state.step).toBe('business.tone');
  });

  it('the new-Spark assistant creates the Spark with all it understood and writes its instructions', async () => {
    const ports = new MemoryPorts(profile());
    const opened = await say('new-spark', 'start', ports);
    const told = await say(
      'new-spark',
      'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone',
      ports,
      opened.state,
    );
    const yes = await say('new-spark', 'yes', ports, told.state);
    // Name and description answered: on to what it is for.
    expect(yes.state.step).toBe('purpose');
    expect(yes.state.vars).toMatchObject({
      business: 'Espiga',
      description: 'A bakery in Madrid',
      tone: 'friendly',
      hours: 'Open Monday to Saturday 8 to 20',
    });
  });
});

describe('the Spark’s instructions written by a language model (issue 17 item 4)', () => {
  const ESPIGA = 'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone';
  const RULES =
    "Speak English in a warm and friendly tone. Answer only with the information in the business's documents; " +
    "when you don't have it, say so plainly and offer to pass the question on. Never invent prices, dates or policies.";
  const TEMPLATE =
    'You are Espiga, the assistant of Espiga on its website. The business: A bakery in Madrid. ' +
    `Opening hours: Open Monday to Saturday 8 to 20. ${RULES}`;
  const WRITTEN =
    'Espiga is a bakery in Madrid. Help visitors with its bread and pastries, warmly and briefly, ' +
    'and give the opening hours, Monday to Saturday from 8 to 20, when they ask.';

  async function confirmed(written: string | undefined) {
    const ports = new MemoryPorts(profile(), {
      id: 'spark-1',
      name: 'My Spark',
      initialMessage: 'Hi',
      language: 'en',
      sysPrompt: '',
    });
    ports.written = written;
    const opened = await say('builder', 'start', ports);
    const told = await say('builder', ESPIGA, ports, opened.state);
    const yes = await say('builder', 'yes', ports, told.state);
    return { ports, yes };
  }

  it('after the confirmation, the model’s part goes between the fixed first sentence and the fixed rules', async () => {
    const { ports, yes } = await confirmed(WRITTEN);
    // Asked once, with the facts saved from the confirmed message.
    expect(ports.writtenFor).toHaveLength(1);
    expect(ports.writtenFor[0]).toMatchObject({ name: 'Espiga', description: 'A bakery in Madrid', tone: 'friendly' });
    expect(ports.current!.sysPrompt).toBe(
      `You are Espiga, the assistant of Espiga on its website. ${WRITTEN} ${RULES}`,
    );
    expect(widgets(yes.outputs)[0].data).toMatchObject({ type: 'card', info: [{ value: ports.current!.sysPrompt }] });
  });

  it('without a model, or when what it wrote does not pass, the template writes them as before', async () => {
    for (const written of [undefined, '', 'Hi!', `{"instructions": "${WRITTEN}"}`, WRITTEN.repeat(12)]) {
      const { ports } = await confirmed(written);
      expect(ports.current!.sysPrompt).toBe(TEMPLATE);
    }
  });

  it('step by step, the tone and language steps ask the model too', async () => {
    const ports = new MemoryPorts(profile(), {
      id: 'spark-1',
      name: 'Espiga',
      initialMessage: 'Hi',
      language: 'en',
      sysPrompt: '',
      description: 'A bakery in Madrid',
    });
    ports.written = WRITTEN;
    const opened = await say('builder', 'start', ports);
    const state = { ...opened.state, step: 'business.tone' };
    await say('builder', 'friendly', ports, state);
    expect(ports.writtenFor).toHaveLength(1);
    expect(ports.current!.sysPrompt).toBe(
      `You are Espiga, the assistant of Espiga on its website. ${WRITTEN} ${RULES}`,
    );
  });
});

describe('the billing assistant (issue 15)', () => {
  it('shows the plan and usage, the plans on sale and buttons that open the plans and the packs', async () => {
    const ports = new MemoryPorts(profile());
    const opened = await say('billing', 'I want to start a plan', ports);
    const shown = widgets(opened.outputs);
    expect(shown.map((w) => w.data.type)).toEqual(['userCard', 'card', 'card', 'buttons']);
    expect(shown[0].data.info).toEqual([
      { type: 'Plan', result: 'Free plan' },
      { type: 'Free trial', result: '12 days left' },
      { type: 'Interactions', result: '7 of 100 this period' },
      { type: 'Purchased interactions left', result: '0' },
    ]);
    expect(shown[1].data.title).toBe('Ruby');
    expect(shown[1].data.info).toContainEqual({ label: 'Price', value: '€45.00 / month' });
    expect(shown[2].data.info).toContainEqual({ label: 'Document sharing', value: 'Yes' });
    expect(shown[3].data.buttons).toEqual([
      { label: 'Choose a plan', goto: '/billing?showPlans=true' },
      { label: 'Buy interactions', goto: '/billing?showCredits=true' },
      { label: 'See my usage', value: 'usage' },
    ]);

    // Asking for a plan in words hands back the button that opens them.
    const asked = await say('billing', 'I want to start a plan', ports, opened.state);
    expect(widgets(asked.outputs).map((w) => w.data)).toEqual([
      {
        type: 'buttons',
        content: '',
        buttons: [{ label: 'Choose a plan', goto: '/billing?showPlans=true' }],
        i18n: { es: { buttons: [{ label: 'Elegir un plan', goto: '/billing?showPlans=true' }] } },
      },
    ]);

    // After a paid pack (the congratulation message), the cards are read again.
    ports.billingSummary = { ...ports.billingSummary, plan: 'Ruby', paid: true, limit: 600, credits: 100 };
    const bought = await say(
      'billing',
      'I have just bought the 100 ITx pack: 100 more interactions. 🎉',
      ports,
      asked.state,
    );
    const card = widgets(bought.outputs)[0].data;
    expect(card.info).toEqual([
      { type: 'Plan', result: 'Ruby' },
      { type: 'Interactions', result: '7 of 600 this period' },
      { type: 'Purchased interactions left', result: '100' },
    ]);
    expect(widgets(bought.outputs)[1].data.title).toBe('Ruby (your plan)');
    expect(bought.state.step).toBe('plans');

    // After a paid plan (its own message, in either language), the same.
    ports.billingSummary = { ...ports.billingSummary, plan: 'Emerald', limit: 1500 };
    for (const [said, language] of [
      ['I have just started the Emerald plan. 🎉', 'en'],
      ['Acabo de empezar el plan Emerald. 🎉', 'es'],
    ] as const) {
      const started = await say('billing', said, ports, bought.state, language);
      expect(widgets(started.outputs)[0].data.info).toContainEqual({ type: 'Plan', result: 'Emerald' });
    }
  });

  it('speaks Spanish, with its numbers', async () => {
    const ports = new MemoryPorts(profile({ language: 'es' }));
    ports.billingSummary = { ...ports.billingSummary, usage: 1200, limit: 1500, credits: 2500 };
    const opened = await say('billing', 'inicio', ports, undefined, 'es');
    expect(texts(opened.outputs)[0]).toMatch(/^Esta es tu situación/);
    const info = widgets(opened.outputs)[0].data.info as Array<{ type: string; result: string }>;
    expect(info).toContainEqual({ type: 'Interacciones', result: '1200 de 1500 en este periodo' });
    expect(info).toContainEqual({ type: 'Interacciones compradas sin usar', result: '2500' });
    const bought = await say(
      'billing',
      'Acabo de comprar el paquete 100 ITx: 100 interacciones más. 🎉',
      ports,
      opened.state,
      'es',
    );
    expect(widgets(bought.outputs)[0].data.type).toBe('userCard');
  });
});

describe('the deploy assistant: unpublish and a new code from the conversation (issue 16)', () => {
  const buttons = (outputs: FlowOutput[]) =>
    widgets(outputs)
      .filter((w) => w.data.type === 'buttons')
      .flatMap((w) => w.data.buttons as Array<{ label: string; value?: string }>);

  it('offers both only while a Spark is published; with one, confirms it and unpublishes only on yes', async () => {
    const ports = new MemoryPorts(profile());
    const none = await say('deploy', 'inicio', ports);
    expect(buttons(none.outputs)).toEqual([]);

    ports.published = [{ sparkId: 'a', name: 'Northwind' }];
    const welcome = await say('deploy', 'inicio', ports, none.state);
    expect(buttons(welcome.outputs)).toEqual([
      { label: 'Unpublish a Spark', value: 'unpublish' },
      { label: 'Replace the code', value: 'new code' },
    ]);
    const asked = await say('deploy', 'unpublish', ports, welcome.state);
    expect(texts(asked.outputs).join(' ')).toContain('Unpublish **Northwind**?');
    expect(buttons(asked.outputs).map((b) => b.value)).toEqual(['yes', 'no']);
    expect(ports.published).toHaveLength(1);

    const kept = await say('deploy', 'no', ports, asked.state);
    expect(texts(kept.outputs)).toEqual(['All right, nothing has changed.']);
    // The choices again: the next one is a click away.
    expect(buttons(kept.outputs).map((b) => b.value)).toEqual(['unpublish', 'new code']);
    expect(ports.published).toHaveLength(1);

    const again = await say('deploy', 'unpublish', ports, kept.state);
    // Anything but yes changes nothing: the message is read as a question.
    const other = await say('deploy', 'what is a widget?', ports, again.state);
    expect(texts(other.outputs)).toEqual(['help']);
    expect(ports.published).toHaveLength(1);

    const third = await say('deploy', 'unpublish', ports, other.state);
    const done = await say('deploy', 'Yes, unpublish it', ports, third.state);
    expect(ports.published).toEqual([]);
    expect(texts(done.outputs).join(' ')).toContain('Published Sparks: 0 of the 1 your plan allows.');
    expect(done.state.dialog).toBeUndefined();
    // Nothing is published any more: no button to unpublish or replace.
    expect(buttons(done.outputs)).toEqual([]);
    const nothing = await say('deploy', 'unpublish', ports, done.state);
    expect(texts(nothing.outputs).join(' ')).toMatch(/None of your Sparks is published/);
  });

  it('asks which Spark when several are published (or takes the one named), in Spanish', async () => {
    const ports = new MemoryPorts(profile({ language: 'es' }));
    ports.published = [
      { sparkId: 'a', name: 'Panadería Sol' },
      { sparkId: 'b', name: 'Taller Luna' },
    ];
    const start = await say('deploy', 'inicio', ports, undefined, 'es');
    const which = await say('deploy', 'nuevo código', ports, start.state, 'es');
    expect(texts(which.outputs)).toEqual(['¿Qué Spark necesita un código nuevo?']);
    expect(buttons(which.outputs)).toEqual([
      { label: 'Panadería Sol', value: 'Panadería Sol' },
      { label: 'Taller Luna', value: 'Taller Luna' },
    ]);
    const confirm = await say('deploy', 'taller luna', ports, which.state, 'es');
    expect(texts(confirm.outputs).join(' ')).toContain('¿Sustituir el código de **Taller Luna**?');
    expect(ports.revoked).toEqual([]);
    const done = await say('deploy', 'sí', ports, confirm.state, 'es');
    expect(ports.revoked).toEqual(['b']);
    expect(texts(done.outputs).join(' ')).toContain('el código antiguo de **Taller Luna** ya no funciona');

    const named = await say('deploy', 'despublicar panaderia sol', ports, done.state, 'es');
    expect(texts(named.outputs).join(' ')).toContain('¿Despublicar **Panadería Sol**?');
    await say('deploy', 'Sí, despublicarlo', ports, named.state, 'es');
    expect(ports.published.map((p) => p.name)).toEqual(['Taller Luna']);
  });
});

describe('the stored state: versioned, checked, older versions migrated (issue 31)', () => {
  const spark = (): SparkInfo => ({
    id: 'spark-1',
    name: 'Espiga',
    initialMessage: 'Hi',
    language: 'en',
    sysPrompt: 'Old instructions.',
  });

  it('a version-1 conversation waiting to save new instructions saves them on yes', async () => {
    const ports = new MemoryPorts(profile(), spark());
    const stored = {
      flow: 'builder',
      step: 'business.name',
      vars: { draftPrompt: 'You are the bakery assistant; answer briefly.' },
      awaiting: 'promptConfirm',
    };
    const saved = await say('builder', 'yes', ports, stored);
    expect(ports.current?.sysPrompt).toBe('You are the bakery assistant; answer briefly.');
    expect(saved.state).toMatchObject({ v: 2, flow: 'builder', vars: { previousPrompt: 'Old instructions.' } });
    expect(saved.state.vars).not.toHaveProperty('draftPrompt');
    expect(saved.state.dialog).toBeUndefined();
  });

  it('a version-1 confirmation of what a description said (facts as a string of JSON) is taken on yes', async () => {
    const ports = new MemoryPorts(profile(), { ...spark(), name: 'My Spark' });
    const stored = {
      flow: 'builder',
      step: 'business.name',
      vars: { draftFacts: JSON.stringify({ name: 'Espiga', description: 'A bakery in Madrid', tone: 'friendly' }) },
      awaiting: 'businessConfirm',
    };
    const yes = await say('builder', 'yes', ports, stored);
    expect(ports.current).toMatchObject({ name: 'Espiga', description: 'A bakery in Madrid', tone: 'friendly' });
    expect(yes.state.step).toBe('knowledge.upload');
  });

  it('a version-1 unpublish waiting for its yes unpublishes the Spark it named', async () => {
    const ports = new MemoryPorts(profile());
    ports.published = [
      { sparkId: 'a', name: 'Northwind' },
      { sparkId: 'b', name: 'Taller Luna' },
    ];
    const stored = {
      flow: 'deploy',
      step: 'welcome',
      vars: { deployAction: 'unpublish', deploySparkId: 'b', deploySparkName: 'Taller Luna' },
      awaiting: 'deployConfirm',
    };
    await say('deploy', 'yes', ports, stored);
    expect(ports.published.map((p) => p.name)).toEqual(['Northwind']);
  });

  it('a version-2 state goes through JSON unchanged, and one that does not read starts the flow afresh', async () => {
    const ports = new MemoryPorts(profile(), spark());
    const opened = await say('builder', 'start', ports);
    const asked = await say('builder', 'put something catchy with bread in it here', ports, opened.state);
    const stored: unknown = JSON.parse(JSON.stringify(asked.state));
    expect(engine.read('builder', stored)).toEqual(asked.state);
    expect(asked.state.dialog).toEqual({
      name: 'valueConfirm',
      draft: 'put something catchy with bread in it here',
      field: 'name',
    });
    // A dialog whose data does not fit its schema, or a state of another flow: nothing of it is used.
    expect(engine.read('builder', { ...asked.state, dialog: { name: 'valueConfirm' } })).toBeUndefined();
    expect(engine.read('builder', { ...asked.state, flow: 'deploy' })).toBeUndefined();
    const broken = await say('builder', 'start', ports, { v: 2, flow: 'builder', step: 7 });
    expect(broken.state.step).toBe('business.name');
    expect(texts(broken.outputs)[0]).toContain("Let's get “Espiga” ready.");
  });

  it('keeps only the variables the flow and its handlers declare', async () => {
    const ports = new MemoryPorts(profile());
    const opened = await say('new-spark', 'start', ports);
    const stored = { ...opened.state, vars: { business: 'Espiga', somethingElse: 'x' } };
    expect(engine.read('new-spark', stored)?.vars).toEqual({ business: 'Espiga' });
  });
});

describe('handlers are registered in one place (issue 31)', () => {
  const flow = (over: Partial<Flow>): Flow => ({
    name: 'x',
    start: 'a',
    steps: [{ id: 'a', say: [{ es: 'a', en: 'a' }], answer: { kind: 'none' }, next: null }],
    ...over,
  });

  it('refuses, when the engine is built, a flow that names an intent or an effect with no handler', () => {
    expect(() => new FlowEngine(FLOWS)).not.toThrow();
    expect(
      () => new FlowEngine([flow({ intents: [{ phrases: ['fly'], action: 'fly' as unknown as 'restart' }] })]),
    ).toThrow('No handler for: x: intent fly');
    expect(
      () =>
        new FlowEngine([
          flow({
            steps: [
              {
                id: 'a',
                say: [{ es: 'a', en: 'a' }],
                answer: { kind: 'none' },
                effects: [{ do: 'toString' as unknown as 'createTest' }],
                next: null,
              },
            ],
          }),
        ]),
    ).toThrow('No handler for: x/a: effect toString');
  });
});

describe('the builder understands owners (issue 31)', () => {
  const spark = (over: Partial<SparkInfo> = {}): SparkInfo => ({
    id: 'spark-1',
    name: 'Mi Spark',
    initialMessage: 'Bienvenido a tu nuevo Spark',
    language: 'es',
    sysPrompt: 'Eres Mi Spark.',
    ...over,
  });
  const at = (step: string): object => ({ flow: 'builder', step, vars: {} });

  it.each([
    ['en', 'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone'],
    ['es', 'Somos Espiga, una panadería en Madrid, abrimos de lunes a sábado de 8 a 20, tono cercano'],
  ] as const)('every agreement at “Is it right?” takes what was understood (%s)', async (language, told) => {
    const phrases =
      language === 'en'
        ? ['correct', 'sounds good', "yep that's right", 'perfect', 'looks good', "that's it", 'yes!!', '👍']
        : ['eso es', 'me parece bien', 'perfecto, gracias', 'exacto', 'vale, perfecto', 'sí!!', '👍'];
    for (const phrase of phrases) {
      const ports = new MemoryPorts(profile({ language }), spark({ language }));
      const opened = await say('builder', 'start', ports, undefined, language);
      const asked = await say('builder', told, ports, opened.state, language);
      expect(asked.state.dialog?.name).toBe('businessConfirm');
      const yes = await say('builder', phrase, ports, asked.state, language);
      expect({ phrase, name: ports.current?.name, step: yes.state.step }).toEqual({
        phrase,
        name: 'Espiga',
        step: 'knowledge.upload',
      });
      expect(ports.current?.sysPrompt).toMatch(/^(You are|Eres) Espiga,/);
    }
  });

  it('a correction at “Is it right?” shows the card again with it', async () => {
    const ports = new MemoryPorts(profile(), spark({ language: 'en' }));
    const opened = await say('builder', 'start', ports);
    const asked = await say('builder', 'We are Espiga, a bakery in Madrid, friendly tone', ports, opened.state);
    const corrected = await say('builder', 'no, the name is Espiga Bakery', ports, asked.state);
    expect(widgets(corrected.outputs)[0].data).toMatchObject({
      type: 'card',
      info: expect.arrayContaining([{ label: 'Name', value: 'Espiga Bakery' }]) as unknown,
    });
    await say('builder', 'yes', ports, corrected.state);
    expect(ports.current?.name).toBe('Espiga Bakery');
  });

  it('agreement at the name step keeps the name: no Spark is ever called “looks good”', async () => {
    for (const phrase of ['looks good', 'correct', 'perfect', 'eso es', '👍']) {
      const ports = new MemoryPorts(profile(), spark({ name: 'Panadería Sol', language: 'en' }));
      const next = await say('builder', phrase, ports, at('business.name'));
      expect(ports.current?.name).toBe('Panadería Sol');
      expect(next.state.step).toBe('business.description');
    }
  });

  it('the welcome message is kept by “déjalo igual”, “No” or “looks good”, and offers a Keep button', async () => {
    for (const phrase of ['déjalo igual', 'No', 'looks good', 'keep']) {
      const ports = new MemoryPorts(profile({ language: 'es' }), spark());
      const next = await say('builder', phrase, ports, at('look.initialMessage'), 'es');
      expect(ports.current?.initialMessage).toBe('Bienvenido a tu nuevo Spark');
      expect(texts(next.outputs)[0]).toBe('De acuerdo, el mensaje de bienvenida se queda como está.');
      expect(next.state.step).toBe('look.preview');
    }
    const ports = new MemoryPorts(profile({ language: 'es' }), spark());
    const asked = await say('builder', 'inicio', ports, at('look.initialMessage'), 'es');
    expect(widgets(asked.outputs).at(-1)?.data).toMatchObject({
      type: 'buttons',
      buttons: [{ label: 'Mantener el mensaje', value: 'keep' }],
    });
  });

  it('a greeting that is an instruction to the builder is confirmed first', async () => {
    const ports = new MemoryPorts(profile(), spark({ language: 'en', initialMessage: 'Hi' }));
    const asked = await say('builder', 'make it friendlier and mention our bread', ports, at('look.initialMessage'));
    expect(ports.current?.initialMessage).toBe('Hi');
    expect(texts(asked.outputs)).toEqual([
      'Should your visitors read exactly “make it friendlier and mention our bread”?',
    ]);
    const no = await say('builder', 'no', ports, asked.state);
    expect(texts(no.outputs)[0]).toBe('All right. Write the message your visitors will read, as they will read it.');
    await say('builder', 'Hi! Ask me about our bread 🥖', ports, no.state);
    expect(ports.current?.initialMessage).toBe('Hi! Ask me about our bread 🥖');
  });

  it('“mejor verde”, “el segundo color” and “change the name to Espiga” work from any step', async () => {
    const ports = new MemoryPorts(profile({ language: 'es' }), spark());
    const green = await say('builder', 'mejor verde', ports, at('look.initialMessage'), 'es');
    expect(ports.current?.palette).toMatchObject({ name: 'forest' });
    expect(texts(green.outputs)[0]).toBe('Hecho: la paleta de colores ahora es «Bosque».');
    // The conversation goes on where it was: the welcome message is asked again.
    expect(texts(green.outputs).at(-1)).toContain('¿Con qué mensaje saludará a tus visitantes?');
    expect(green.state.step).toBe('look.initialMessage');
    expect(ports.statuses.get('look.palette')).toBe('completed');

    const second = await say('builder', 'el segundo color', ports, at('test.judge'), 'es');
    expect(ports.current?.palette).toMatchObject({ name: 'ocean' });
    expect(second.state.step).toBe('test.judge');

    const en = new MemoryPorts(profile(), spark({ language: 'en', name: 'My Spark' }));
    const renamed = await say('builder', 'please change the name to Espiga', en, at('knowledge.upload'));
    expect(en.current?.name).toBe('Espiga');
    expect(texts(renamed.outputs)[0]).toBe('Done: the name is now “Espiga”.');
    expect(texts(renamed.outputs).join(' ')).not.toContain('still waiting');
    expect(renamed.state.step).toBe('knowledge.upload');
    // At its own step, it is the answer.
    const own = await say('builder', 'mejor azul', en, at('look.palette'));
    expect(en.current?.palette).toMatchObject({ name: 'ocean' });
    expect(own.state.step).toBe('look.icon');
  });

  it('“No” at the preview asks what to change, and shows the preview again after it', async () => {
    const ports = new MemoryPorts(profile(), spark({ language: 'en' }));
    const no = await say('builder', 'No', ports, at('look.preview'));
    expect(texts(no.outputs)).toEqual(['What would you like to change?']);
    const colours = await say('builder', 'the colours', ports, no.state);
    expect(colours.state.step).toBe('look.palette.again');
    const picked = await say('builder', 'pink', ports, colours.state);
    expect(ports.current?.palette).toMatchObject({ name: 'rose' });
    expect(picked.state.step).toBe('look.preview');
    expect(widgets(picked.outputs).map((w) => w.data.type)).toContain('widgetPreview');
    const yes = await say('builder', 'looks good', ports, picked.state);
    expect(yes.state.step).toBe('test.create');
  });

  it('a question at a step gets the step’s hint and the question again', async () => {
    const ports = new MemoryPorts(profile(), spark({ language: 'en', name: 'Tienda' }));
    const asked = await say('builder', 'what should I write here?', ports, at('business.name'));
    expect(ports.current?.name).toBe('Tienda');
    expect(texts(asked.outputs)).toEqual([
      'It is the name your customers see in the chat on your website, for example “Sol Bakery”. You can change it at any time.',
      'Which name will your customers see? It is called “Tienda” now.',
    ]);
  });

  it('asks the model only when the rules are not sure, and takes its reading', async () => {
    const ports = new MemoryPorts(profile(), spark({ language: 'en' }));
    await say('builder', 'looks good', ports, at('look.preview'));
    expect(ports.askedModel).toEqual([]);
    // Unclear to the rules: without a model, the question again; with one, its reading.
    const unclear = await say('builder', 'I reckon the owner would be chuffed', ports, at('look.preview'));
    expect(texts(unclear.outputs)[0]).toBe("I didn't quite get that. Please answer yes or no.");
    expect(ports.askedModel).toHaveLength(1);
    expect(ports.askedModel[0].step).toMatchObject({ expects: 'confirm', question: 'Do you like how it looks?' });
    ports.modelReading = { kind: 'agree', field: null, value: null, unusual: false };
    const read = await say('builder', 'I reckon the owner would be chuffed', ports, at('look.preview'));
    expect(read.state.step).toBe('test.create');
    // A reading that does not fit the step is not used.
    ports.modelReading = { kind: 'value', field: null, value: 'purple-ish', unusual: false };
    const wrong = await say('builder', 'the one like a plum', ports, at('look.palette'));
    expect(wrong.state.step).toBe('look.palette');
  });
});

describe('the builder offers Publish only when the plan allows it (issue 31)', () => {
  const ready = (
    language: 'en' | 'es',
    deploymentLimit: number,
    published: Array<{ sparkId: string; name: string }>,
  ) => {
    const ports = new MemoryPorts(profile({ language }), { ...hostileSpark(), name: 'Espiga', language });
    ports.deploymentLimit = deploymentLimit;
    ports.published = published;
    ports.statuses.set('knowledge.upload', 'completed');
    return ports;
  };
  const judging: FlowState = { flow: 'builder', step: 'test.judge', vars: {} };
  const buttons = (outputs: FlowOutput[]) => widgets(outputs).at(-1)?.data.buttons;

  it('a trial (one published Spark allowed, none published) is offered Publish', async () => {
    const next = await say('builder', 'skip', ready('en', 1, []), judging);
    expect(texts(next.outputs).at(-1)).toBe('“Espiga” is ready to be published on your website!');
    expect(buttons(next.outputs)).toEqual([{ label: 'Publish Espiga', goto: '/deploy?q=Espiga' }]);
  });

  it('a plan that allows none says so and offers the plans, never "unpublish one"', async () => {
    for (const language of ['en', 'es'] as const) {
      const next = await say('builder', 'skip', ready(language, 0, []), judging, language);
      const said = texts(next.outputs).at(-1)!;
      expect(said).toBe(
        language === 'en'
          ? '“Espiga” is ready, but your plan does not include published Sparks. Choose a plan to publish it on your website.'
          : '«Espiga» está listo, pero tu plan no incluye Sparks publicados. Elige un plan para publicarlo en tu web.',
      );
      expect(buttons(next.outputs)).toEqual([
        { label: language === 'en' ? 'See the plans' : 'Ver los planes', goto: '/billing?showPlans=true' },
      ]);
    }
  });

  it('a plan whose places are taken says so, and offers Deploy (to unpublish one) and the plans', async () => {
    const next = await say('builder', 'skip', ready('en', 1, [{ sparkId: 'other', name: 'Northwind' }]), judging);
    expect(texts(next.outputs).at(-1)).toContain('all the published Sparks your plan allows are in use');
    expect(buttons(next.outputs)).toEqual([
      { label: 'See the plans', goto: '/billing?showPlans=true' },
      { label: 'Go to Deploy', goto: '/deploy' },
    ]);
  });
});

describe('the help steps do not ask the model what a question means', () => {
  it('answers from the help, without a model call', async () => {
    const ports = new MemoryPorts(profile());
    const home = await say('main', 'start', ports);
    const answered = await say('main', 'I would like to know about plans for my shop', ports, home.state);
    expect(texts(answered.outputs)).toEqual(['help']);
    expect(ports.askedModel).toEqual([]);
  });
});
