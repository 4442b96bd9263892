import { escapeMarkdown } from '@sparks/contracts';
import { isStartKeyword } from '../composer';
import { ICONS, PALETTES } from './theme';
import type {
  AnswerSpec,
  Choice,
  Condition,
  Effect,
  Flow,
  FlowEvent,
  FlowState,
  I18n,
  Intent,
  Lang,
  Step,
  StepStatus,
} from './types';
import { isSkip, LANGUAGE_CHOICES, matchChoice, normalize, yesNo } from './understand';

/** One message the assistant adds to the conversation. */
export interface FlowOutput {
  type: 'ai' | 'action';
  data: { content: string; type?: string; [key: string]: unknown };
}

export interface SparkInfo {
  id: string;
  name: string;
  initialMessage: string;
  language: Lang;
  sysPrompt: string;
  palette?: { name: string; primary: string; secondary: string };
  icon?: string;
  business?: string;
  description?: string;
  purpose?: string;
  tone?: string;
}

export interface Profile {
  firstname: string;
  lastname: string;
  username: string;
  language: Lang;
  plan: string;
}

/** What a flow may read and change; the worker implements it on the database. */
export interface FlowPorts {
  profile(): Promise<Profile>;
  updateProfile(patch: Partial<Pick<Profile, 'firstname' | 'lastname' | 'language'>>): Promise<void>;
  spark(): Promise<SparkInfo | undefined>;
  updateSpark(patch: Partial<Omit<SparkInfo, 'id'>>): Promise<void>;
  createSpark(v: {
    name: string;
    business: string;
    description: string;
    purpose: string;
    language: Lang;
  }): Promise<{ id: string; name: string }>;
  newestSpark(): Promise<{ id: string; name: string } | undefined>;
  countTests(): Promise<number>;
  /** Creates a test of the Spark (when it has room) and answers its id. */
  createTest(): Promise<string | undefined>;
  stepStatus(stepId: string): Promise<StepStatus | undefined>;
  setStepStatus(stepId: string, status: StepStatus): Promise<void>;
  deactivateAccount(): Promise<void>;
  help(question: string, language: Lang): Promise<string>;
}

const TEXT: Record<string, I18n> = {
  reask: { es: 'No te he entendido. ', en: "I didn't quite get that. " },
  chooseOne: { es: 'Elige una de las opciones: {options}.', en: 'Please choose one of: {options}.' },
  tooShort: {
    es: 'Necesito un poco más de detalle (al menos {min} caracteres).',
    en: 'I need a little more detail (at least {min} characters).',
  },
  tooLong: {
    es: 'Es demasiado largo: como mucho {max} caracteres.',
    en: 'That is too long: {max} characters at most.',
  },
  empty: { es: 'Escribe una respuesta, por favor.', en: 'Please type an answer.' },
  yesNo: { es: 'Responde sí o no.', en: 'Please answer yes or no.' },
  waiting: {
    es: 'Sigo esperando. Cuando termine, seguimos; o escribe «saltar» para continuar sin esto.',
    en: "I'm still waiting for it. Once it's done we'll go on; or type “skip” to continue without it.",
  },
  waitingNoSkip: { es: 'Sigo esperando a que termine.', en: "I'm still waiting for it to finish." },
  resume: { es: 'Seguimos donde lo dejamos.', en: "Let's pick up where we left off." },
  promptCardTitle: { es: 'Instrucciones de tu Spark', en: "Your Spark's instructions" },
  promptLabel: { es: 'Instrucciones', en: 'Instructions' },
  askPrompt: {
    es: 'Escribe las nuevas instrucciones para tu Spark (sustituirán a las actuales).',
    en: "Write your Spark's new instructions (they replace the current ones).",
  },
  promptSaved: { es: 'Listo: he guardado las nuevas instrucciones.', en: "Done: I've saved the new instructions." },
  testOk: {
    es: '¡Genial! Marco la prueba como satisfactoria.',
    en: "Great! I'm marking the test as satisfactory.",
  },
  testKo: {
    es: 'Vaya. Marco la prueba como no satisfactoria: añade documentos con la información que faltó, o cambia las instrucciones (escribe «ver instrucciones»), y vuelve a probar.',
    en: "Too bad. I'm marking the test as not satisfactory: add documents with the missing information, or change the instructions (type “show instructions”), and test again.",
  },
  userCardTitle: { es: 'Tus datos', en: 'Your details' },
  previewTitle: { es: 'Así se verá tu Spark', en: 'This is how your Spark will look' },
  explainTitle: { es: 'Sparks en tres pasos', en: 'Sparks in three steps' },
};

const fill = (s: string, vars: Record<string, string>, as: (value: string) => string = (v) => v) =>
  s.replace(/\{(\w+)\}/g, (m, k: string) => (vars[k] === undefined ? m : as(vars[k])));
/** A text shown as it is (a button's label, a card): the values as they are. */
const label = (lang: Lang, t: I18n, vars: Record<string, string> = {}) => fill(t[lang], vars);
/** A message (markdown): the values, which users may have typed, escaped so that they show as typed. */
const say = (lang: Lang, t: I18n, vars: Record<string, string> = {}) => fill(t[lang], vars, escapeMarkdown);
/** A route of the app: each value one path segment or query value. */
const route = (goto: string, vars: Record<string, string>) => fill(goto, vars, encodeURIComponent);

export interface RunContext {
  language: Lang;
  state: FlowState | undefined;
  ports: FlowPorts;
  /** Extra values for the prompts (e.g. the Spark id a page was opened with). */
  vars?: Record<string, string>;
}

export interface RunResult {
  outputs: FlowOutput[];
  state: FlowState;
}

/** Interprets flow definitions: asks, reads answers without an LLM, applies effects, tracks objectives. */
export class FlowEngine {
  private readonly flows = new Map<string, Flow>();

  constructor(flows: Flow[]) {
    for (const flow of flows) this.flows.set(flow.name, flow);
  }

  flow(name: string): Flow {
    const flow = this.flows.get(name);
    if (!flow) throw new Error(`No flow named ${name}`);
    return flow;
  }

  has(name: string): boolean {
    return this.flows.has(name);
  }

  async run(name: string, text: string, ctx: RunContext): Promise<RunResult> {
    const flow = this.flow(name);
    const fresh = !ctx.state || ctx.state.flow !== name;
    const state: FlowState = fresh
      ? { flow: name, step: flow.start, vars: { ...(ctx.vars ?? {}) } }
      : { ...ctx.state!, vars: { ...ctx.state!.vars, ...(ctx.vars ?? {}) } };
    const run = new Run(flow, state, ctx);
    await run.handle(text, fresh);
    return { outputs: run.outputs, state: run.state };
  }
}

class Run {
  readonly outputs: FlowOutput[] = [];
  lang: Lang;

  constructor(
    private readonly flow: Flow,
    readonly state: FlowState,
    private readonly ctx: RunContext,
  ) {
    this.lang = ctx.language;
  }

  private step(id: string | null): Step | undefined {
    return id ? this.flow.steps.find((s) => s.id === id) : undefined;
  }

  private text(content: string): void {
    if (content.trim()) this.outputs.push({ type: 'ai', data: { content } });
  }

  private action(type: string, payload: Record<string, unknown>, content = ''): void {
    this.outputs.push({ type: 'action', data: { type, content, ...payload } });
  }

  private async vars(): Promise<Record<string, string>> {
    const [profile, spark, newest] = await Promise.all([
      this.ctx.ports.profile(),
      this.ctx.ports.spark(),
      this.ctx.ports.newestSpark(),
    ]);
    return {
      ...this.state.vars,
      firstname: profile.firstname || profile.username,
      username: profile.username,
      ...(spark ? { sparkId: spark.id, sparkName: spark.name, initialMessage: spark.initialMessage } : {}),
      ...(newest ? { newestSparkId: newest.id, newestSparkName: newest.name } : {}),
    };
  }

  async handle(text: string, fresh: boolean): Promise<void> {
    const start = isStartKeyword(text);
    if (this.state.awaiting === 'prompt' && !start) {
      this.state.awaiting = undefined;
      await this.ctx.ports.updateSpark({ sysPrompt: text.trim() });
      this.text(say(this.lang, TEXT.promptSaved));
      return;
    }
    const intent = start ? undefined : this.intent(text);
    if (intent) return this.runIntent(intent);
    if (start || fresh) {
      if (!fresh && this.state.step && this.state.step !== this.flow.start) this.text(say(this.lang, TEXT.resume));
      return this.askFrom(this.state.step);
    }
    const step = this.step(this.state.step) ?? this.step(this.flow.start)!;
    await this.answer(step, text);
  }

  private intent(text: string): Intent | undefined {
    const said = normalize(text);
    return this.flow.intents?.find((i) => i.phrases.some((p) => said === p || said.startsWith(`${p} `)));
  }

  private async runIntent(intent: Intent): Promise<void> {
    switch (intent.action) {
      case 'showPrompt': {
        const spark = await this.ctx.ports.spark();
        if (spark)
          this.action('card', {
            title: label(this.lang, TEXT.promptCardTitle),
            info: [{ label: label(this.lang, TEXT.promptLabel), value: spark.sysPrompt }],
          });
        return;
      }
      case 'editPrompt':
        this.state.awaiting = 'prompt';
        this.text(say(this.lang, TEXT.askPrompt));
        return;
      case 'testSatisfactory':
        await this.completeEvent('test.satisfactory', 'completed');
        this.text(say(this.lang, TEXT.testOk));
        return this.askFrom(this.state.step);
      case 'testNotSatisfactory':
        await this.completeEvent('test.satisfactory', 'error');
        this.text(say(this.lang, TEXT.testKo));
        return;
      case 'restart':
        this.state.step = this.flow.start;
        return this.askFrom(this.flow.start);
    }
  }

  /** Marks the steps waiting for `event`; moves the conversation past the one it is on. */
  private async completeEvent(event: FlowEvent, status: StepStatus): Promise<void> {
    for (const step of this.flow.steps) {
      if (step.answer.kind === 'event' && step.answer.event === event) {
        await this.ctx.ports.setStepStatus(step.id, status);
        if (status === 'completed' && this.state.step === step.id) this.state.step = this.nextOf(step, 'done');
      }
    }
  }

  private nextOf(step: Step, value: string): string | null {
    if (step.next === null || typeof step.next === 'string') return step.next;
    return step.next[value] !== undefined ? step.next[value]! : (step.next['*'] ?? null);
  }

  private async visible(choices: Choice[], vars: Record<string, string>): Promise<Choice[]> {
    const holds: Record<Condition, () => Promise<boolean>> = {
      hasSparks: () => Promise.resolve(!!vars.newestSparkId),
      hasTests: async () => (await this.ctx.ports.countTests()) > 0,
    };
    const out: Choice[] = [];
    for (const c of choices) if (!c.when || (await holds[c.when]())) out.push(c);
    return out;
  }

  private choicesFor(spec: AnswerSpec): Choice[] {
    switch (spec.kind) {
      case 'choice':
      case 'help':
        return spec.choices;
      case 'event':
        return spec.choices ?? [];
      case 'yesno':
        return [
          { value: 'yes', label: { es: 'Sí', en: 'Yes' } },
          { value: 'no', label: { es: 'No', en: 'No' } },
        ];
      case 'language':
        return LANGUAGE_CHOICES;
      case 'palette':
        return PALETTES.map((p) => ({ value: p.id, label: p.name, synonyms: [p.primary] }));
      case 'icon':
        return ICONS.map((i) => ({ value: i.id, label: i.name, synonyms: [i.icon] }));
      case 'text':
      case 'none':
        return [];
    }
  }

  private async widget(step: Step, vars: Record<string, string>): Promise<void> {
    const spec = step.answer;
    const lang = this.lang;
    const render = (c: Choice) => ({
      label: label(lang, c.label, vars),
      ...(c.goto ? { goto: route(c.goto, vars) } : c.link ? { link: c.link } : { value: c.value }),
    });
    switch (spec.kind) {
      case 'choice':
      case 'help':
      case 'event': {
        const choices = await this.visible(this.choicesFor(spec), vars);
        if (choices.length === 0) break;
        const kind = spec.kind === 'choice' ? (spec.widget ?? 'options') : 'buttons';
        if (kind === 'buttons') this.action('buttons', { buttons: choices.map(render) });
        else if (kind === 'onboarding') this.action('onboarding', { onboarding: choices.map(render) });
        else this.action('options', { options: choices.map(render) });
        break;
      }
      case 'yesno':
        this.action('buttons', { buttons: this.choicesFor(spec).map(render) });
        break;
      case 'language':
        this.action('options', { options: LANGUAGE_CHOICES.map(render) });
        break;
      case 'palette':
        this.action('colorPalette', {
          palettes: PALETTES.map((p) => ({ name: p.name[lang], primary: p.primary, secondary: p.secondary })),
        });
        break;
      case 'icon':
        this.action('iconSelector', { icons: ICONS.map((i) => ({ name: i.name[lang], icon: i.icon })) });
        break;
      case 'text':
      case 'none':
        break;
    }
  }

  private async show(kind: NonNullable<Step['show']>): Promise<void> {
    const lang = this.lang;
    if (kind === 'userCard') {
      const p = await this.ctx.ports.profile();
      this.action('userCard', {
        title: label(lang, TEXT.userCardTitle),
        info: [
          { type: lang === 'es' ? 'Nombre' : 'First name', result: p.firstname || '—' },
          { type: lang === 'es' ? 'Apellidos' : 'Last name', result: p.lastname || '—' },
          { type: lang === 'es' ? 'Correo' : 'E-mail', result: p.username },
          { type: lang === 'es' ? 'Idioma' : 'Language', result: p.language === 'es' ? 'Español' : 'English' },
          { type: lang === 'es' ? 'Plan' : 'Plan', result: p.plan },
        ],
      });
    } else if (kind === 'widgetPreview') {
      const s = await this.ctx.ports.spark();
      if (s) {
        this.action('widgetPreview', {
          title: label(lang, TEXT.previewTitle),
          preview: {
            name: s.name,
            initialMessage: s.initialMessage,
            language: s.language,
            palette: s.palette ?? null,
            icon: s.icon ?? null,
          },
        });
      }
    } else if (kind === 'sysPromptCard') {
      const s = await this.ctx.ports.spark();
      if (s)
        this.action('card', {
          title: label(lang, TEXT.promptCardTitle),
          info: [{ label: label(lang, TEXT.promptLabel), value: s.sysPrompt }],
        });
    } else {
      this.action('card', {
        title: label(lang, TEXT.explainTitle),
        info:
          lang === 'es'
            ? [
                { label: '1. Cuéntanos tu negocio', value: 'Chateando, describes qué haces y subes tus PDF.' },
                { label: '2. Pruébalo', value: 'Haz preguntas a tu Spark como lo haría un cliente.' },
                { label: '3. Publícalo', value: 'Pega el widget en tu web y responde 24/7.' },
              ]
            : [
                {
                  label: '1. Tell us about your business',
                  value: 'By chatting, you describe what you do and upload your PDFs.',
                },
                { label: '2. Test it', value: 'Ask your Spark questions the way a customer would.' },
                { label: '3. Publish it', value: 'Paste the widget on your website and answer 24/7.' },
              ],
      });
    }
  }

  /** Says a step; steps with nothing to answer are said and passed through. */
  private async askFrom(stepId: string | null): Promise<void> {
    let id = stepId;
    for (let guard = 0; id && guard < 20; guard += 1) {
      const step = this.step(id);
      if (!step) break;
      // An event that already happened (a document read meanwhile) needs no waiting.
      if (step.answer.kind === 'event' && (await this.ctx.ports.stepStatus(step.id)) === 'completed') {
        id = this.nextOf(step, 'done');
        continue;
      }
      const vars = await this.vars();
      for (const line of step.say) this.text(say(this.lang, line, vars));
      if (step.show) await this.show(step.show);
      await this.widget(step, vars);
      this.state.step = step.id;
      if (step.answer.kind !== 'none') return;
      await this.apply(step, '');
      if (step.objective) await this.ctx.ports.setStepStatus(step.id, 'completed');
      id = this.nextOf(step, '');
    }
    this.state.step = id;
  }

  private async reask(step: Step, why: string): Promise<void> {
    const vars = await this.vars();
    this.text(say(this.lang, TEXT.reask) + why);
    await this.widget(step, vars);
  }

  private async answer(step: Step, raw: string): Promise<void> {
    const text = raw.trim();
    const spec = step.answer;
    const vars = await this.vars();
    const optionsList = async () =>
      (await this.visible(this.choicesFor(spec), vars)).map((c) => label(this.lang, c.label, vars)).join(', ');
    let value: string;
    switch (spec.kind) {
      case 'text': {
        if (!text) return this.reask(step, say(this.lang, TEXT.empty));
        if (spec.min && text.length < spec.min)
          return this.reask(step, say(this.lang, TEXT.tooShort, { min: String(spec.min) }));
        if (spec.max && text.length > spec.max)
          return this.reask(step, say(this.lang, TEXT.tooLong, { max: String(spec.max) }));
        value = text;
        break;
      }
      case 'yesno': {
        const yn = yesNo(text);
        if (!yn) return this.reask(step, say(this.lang, TEXT.yesNo));
        value = yn;
        break;
      }
      case 'choice':
      case 'language':
      case 'palette':
      case 'icon': {
        const choice = matchChoice(text, await this.visible(this.choicesFor(spec), vars));
        if (!choice) return this.reask(step, say(this.lang, TEXT.chooseOne, { options: await optionsList() }));
        value = choice.value;
        break;
      }
      case 'event': {
        const choice = matchChoice(text, spec.choices ?? []);
        if ((await this.ctx.ports.stepStatus(step.id)) === 'completed') value = 'done';
        else if (spec.skippable && (isSkip(text) || choice?.value === 'skip')) value = 'skip';
        else {
          this.text(say(this.lang, spec.skippable ? TEXT.waiting : TEXT.waitingNoSkip));
          return;
        }
        break;
      }
      case 'help': {
        const choice = matchChoice(text, await this.visible(spec.choices, vars));
        if (!choice) {
          this.text(await this.ctx.ports.help(text, this.lang));
          await this.widget(step, vars);
          return;
        }
        if (choice.goto || choice.link) {
          // Typed rather than clicked: hand back the one button that does it.
          this.action('buttons', {
            buttons: [
              {
                label: label(this.lang, choice.label, vars),
                ...(choice.goto ? { goto: route(choice.goto, vars) } : { link: choice.link }),
              },
            ],
          });
          return;
        }
        value = choice.value;
        break;
      }
      case 'none':
        value = '';
        break;
    }
    await this.apply(step, value);
    if (step.objective && spec.kind !== 'event') await this.ctx.ports.setStepStatus(step.id, 'completed');
    if (step.objective && spec.kind === 'event' && value === 'done')
      await this.ctx.ports.setStepStatus(step.id, 'completed');
    const after = await this.vars();
    if (step.confirm) this.text(say(this.lang, step.confirm, after));
    await this.askFrom(this.nextOf(step, value));
  }

  private async apply(step: Step, value: string): Promise<void> {
    for (const effect of step.effects ?? []) await this.effect(effect, value);
  }

  private async effect(effect: Effect, value: string): Promise<void> {
    const ports = this.ctx.ports;
    if ('do' in effect) {
      switch (effect.do) {
        case 'createSpark': {
          const v = this.state.vars;
          const created = await ports.createSpark({
            name: v.business ?? value,
            business: v.business ?? '',
            description: v.description ?? '',
            purpose: v.purpose ?? '',
            language: (v.language as Lang | undefined) ?? this.lang,
          });
          this.state.vars.createdSparkId = created.id;
          this.state.vars.createdSparkName = created.name;
          this.state.sparkId = created.id;
          this.action('event', { event: 'sparkCreated', sparkId: created.id, name: created.name });
          return;
        }
        case 'buildSysPrompt':
          return ports.updateSpark({ sysPrompt: await this.buildPrompt() });
        case 'deactivateAccount':
          if (value === 'yes') await ports.deactivateAccount();
          return;
        case 'createTest': {
          if (value === 'skip') return;
          const testId = await ports.createTest();
          if (testId) {
            this.state.vars.testId = testId;
            this.action('event', { event: 'testCreated', testId });
          }
          return;
        }
      }
    }
    switch (effect.set) {
      case 'var':
        this.state.vars[effect.key] = value;
        return;
      case 'profile.firstname':
        return ports.updateProfile({ firstname: value });
      case 'profile.lastname':
        return ports.updateProfile({ lastname: value });
      case 'profile.language':
        this.lang = value as Lang;
        return ports.updateProfile({ language: value as Lang });
      case 'spark.name':
        return ports.updateSpark({ name: value });
      case 'spark.initialMessage':
        return ports.updateSpark({ initialMessage: value });
      case 'spark.language':
        return ports.updateSpark({ language: value as Lang });
      case 'spark.palette': {
        const p = PALETTES.find((x) => x.id === value)!;
        return ports.updateSpark({ palette: { name: p.id, primary: p.primary, secondary: p.secondary } });
      }
      case 'spark.icon':
        return ports.updateSpark({ icon: ICONS.find((i) => i.id === value)!.icon });
      case 'spark.option':
        return ports.updateSpark({ [effect.key]: value });
    }
  }

  /** The Spark's instructions, written from what the owner told the builder. */
  private async buildPrompt(): Promise<string> {
    const s = await this.ctx.ports.spark();
    if (!s) return '';
    const es = s.language === 'es';
    const tone: Record<string, I18n> = {
      friendly: { es: 'cercano y amable', en: 'warm and friendly' },
      professional: { es: 'profesional y preciso', en: 'professional and precise' },
      fun: { es: 'divertido y desenfadado', en: 'fun and light-hearted' },
    };
    const t = tone[s.tone ?? 'friendly'] ?? tone.friendly;
    const purposes: Record<string, I18n> = {
      questions: { es: 'responder las preguntas de los clientes', en: "answer customers' questions" },
      sell: { es: 'ayudar a elegir y comprar productos', en: 'help people choose and buy products' },
      bookings: { es: 'ayudar a reservar citas', en: 'help people book appointments' },
      support: { es: 'dar soporte a los clientes', en: 'support customers' },
    };
    const purpose = s.purpose ? (purposes[s.purpose]?.[s.language] ?? s.purpose) : '';
    return es
      ? `Eres ${s.name}, el asistente de ${s.business || s.name} en su web. ${s.description ? `El negocio: ${s.description}. ` : ''}${purpose ? `Tu objetivo: ${purpose}. ` : ''}Habla en español con un tono ${t.es}. Responde solo con la información de los documentos del negocio; si no la tienes, dilo con claridad y ofrece trasladar la pregunta. Nunca inventes precios, fechas ni condiciones.`
      : `You are ${s.name}, the assistant of ${s.business || s.name} on its website. ${s.description ? `The business: ${s.description}. ` : ''}${purpose ? `Your goal: ${purpose}. ` : ''}Speak English in a ${t.en} tone. Answer only with the information in the business's documents; when you don't have it, say so plainly and offer to pass the question on. Never invent prices, dates or policies.`;
  }
}
