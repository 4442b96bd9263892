import { FlowEngine, type FlowOutput, type FlowPorts, type Profile, type SparkInfo } from './engine';
import { FLOWS } from './index';
import type { FlowState, StepStatus } from './types';

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
  createSpark = (v: { name: string; language: 'es' | 'en' }) => {
    this.current = { id: 's1', name: v.name, initialMessage: 'Hola', language: v.language, sysPrompt: '' };
    return Promise.resolve({ id: 's1', name: v.name });
  };
  newestSpark = () => Promise.resolve(this.current && { id: this.current.id, name: this.current.name });
  countTests = () => Promise.resolve(0);
  createTest = () => Promise.resolve(undefined);
  stepStatus = (id: string) => Promise.resolve(this.statuses.get(id));
  setStepStatus = (id: string, status: StepStatus) => {
    this.statuses.set(id, status);
    return Promise.resolve();
  };
  deactivateAccount = () => Promise.resolve();
  help = () => Promise.resolve('help');
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

async function say(flow: string, text: string, ports: MemoryPorts, state?: FlowState) {
  return engine.run(flow, text, { language: 'en', state, ports });
}
const texts = (outputs: FlowOutput[]) => outputs.filter((o) => o.type === 'ai').map((o) => o.data.content);
const widgets = (outputs: FlowOutput[]) => outputs.filter((o) => o.type === 'action');

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

  it('the chat home greets the user by a first name escaped, and names the newest Spark as it is in its button', async () => {
    const ports = new MemoryPorts(profile({ firstname: '**Ana** <b>' }), hostileSpark());
    const home = await say('main', 'start', ports);
    expect(texts(home.outputs)).toEqual(['Hi \\*\\*Ana\\*\\* \\<b\\>! What would you like to do?']);
    const buttons = widgets(home.outputs)[0].data.buttons as Array<{ label: string; goto?: string }>;
    expect(buttons).toContainEqual({ label: `Open ${HOSTILE}`, goto: '/spark/spark-1' });
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
