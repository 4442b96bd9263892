/**
 * One turn of a flow: the interpreter of definitions. It hands the message to the pending dialog or to an intent
 * (handlers/index.ts), else reads it as the answer to the current step, applies the step's effects (handlers) and
 * says the next steps. It knows no dialog, intent or effect by name.
 */

import { LANGUAGES, type ActionData } from '@sparks/contracts';
import { isStartKeyword } from '../composer';
import { dialogFor, EFFECTS, INTENTS } from './handlers';
import { answer } from './answer';
import type { FlowOutput, FlowPorts, SparkInfo } from './ports';
import { buildPrompt } from './prompt';
import type { DialogState, FlowState } from './state';
import { label, msg, say, type FlowTextKey } from './texts';
import type { EffectHandler, Labeler, Turn } from './turn';
import type { Flow, FlowEvent, I18n, Intent, Lang, Step, StepStatus } from './types';
import { normalize } from './understand';
import { askForModel, classifyReply, readingOf, SURE_ENOUGH, type Ask, type Reading } from './understanding';
import { inEveryLanguage, inEveryLanguageAsync } from './localized';
import { conditions, renderCard, renderWidget, type ActionFields, type Emit } from './widgets';

export class Run implements Turn {
  readonly outputs: FlowOutput[] = [];
  lang: Lang;
  halted = false;
  takingFacts = false;

  constructor(
    readonly flow: Flow,
    readonly state: FlowState,
    readonly ports: FlowPorts,
    language: Lang,
    /** The variables the flow keeps (the others would be lost when the state is stored). */
    private readonly keeps: ReadonlySet<string>,
  ) {
    this.lang = language;
  }

  // — what handlers use (turn.ts) —

  text(content: string): void {
    if (content.trim()) this.outputs.push({ type: 'ai', data: { content } });
  }

  private i18n = (text: FlowTextKey | I18n): I18n => (typeof text === 'string' ? msg(text) : text);

  /** One of the engine's texts, with how it reads in each other language: the chat shows the interface's. */
  say(text: FlowTextKey | I18n, vars: Record<string, string> = {}): void {
    const t = this.i18n(text);
    const content = say(this.lang, t, vars);
    if (!content.trim()) return;
    const i18n: Partial<Record<Lang, { content: string }>> = {};
    for (const lang of LANGUAGES) {
      const other = say(lang, t, vars);
      if (lang !== this.lang && other !== content && other.trim()) i18n[lang] = { content: other };
    }
    this.outputs.push({ type: 'ai', data: { content, ...(Object.keys(i18n).length > 0 ? { i18n } : {}) } });
  }

  label(text: FlowTextKey | I18n, vars: Record<string, string> = {}): string {
    return label(this.lang, this.i18n(text), vars);
  }

  readonly action: Emit = (type, payload) => {
    this.outputs.push({ type: 'action', data: { type, content: '', ...payload } as unknown as ActionData });
  };

  localAction<T extends ActionData['type']>(type: T, build: (label: Labeler, lang: Lang) => ActionFields<T>): void {
    this.inEveryLanguage((emit, lang) =>
      emit(
        type,
        build((text, vars = {}) => label(lang, this.i18n(text), vars), lang),
      ),
    );
  }

  inEveryLanguage(render: (emit: Emit, lang: Lang) => void): void {
    inEveryLanguage(this.action, this.lang, render);
  }

  yesNoButtons(yes: FlowTextKey, no: FlowTextKey): void {
    this.localAction('buttons', (l) => ({
      buttons: [
        { label: l(yes), value: 'yes' },
        { label: l(no), value: 'no' },
      ],
    }));
  }

  setVar(key: string, value: string): void {
    if (!this.keeps.has(key)) throw new Error(`The flow ${this.flow.name} keeps no variable ${key}`);
    this.state.vars[key] = value;
  }

  setDialog(dialog: DialogState | undefined): void {
    if (dialog) this.state.dialog = dialog;
    else delete this.state.dialog;
  }

  step(id: string | null): Step | undefined {
    return id ? this.flow.steps.find((s) => s.id === id) : undefined;
  }

  async vars(): Promise<Record<string, string>> {
    const [profile, spark, newest] = await Promise.all([
      this.ports.account.profile(),
      this.ports.sparks.current(),
      this.ports.sparks.newest(),
    ]);
    return {
      ...this.state.vars,
      // A greeting never uses a raw e-mail address: the part before @ stands in for a missing first name.
      firstname: profile.firstname?.trim() || profile.username.split('@')[0],
      username: profile.username,
      ...(spark ? { sparkId: spark.id, sparkName: spark.name, initialMessage: spark.initialMessage } : {}),
      ...(newest ? { newestSparkId: newest.id, newestSparkName: newest.name } : {}),
    };
  }

  async widget(step: Step, vars?: Record<string, string>): Promise<void> {
    const values = vars ?? (await this.vars());
    return inEveryLanguageAsync(this.action, this.lang, (emit, lang) =>
      renderWidget(emit, lang, step, values, this.ports),
    );
  }

  async offerAgain(): Promise<void> {
    const step = this.step(this.state.step) ?? this.step(this.flow.start);
    if (step) await this.widget(step);
  }

  intent(text: string): Intent | undefined {
    const said = normalize(text);
    return this.flow.intents?.find((i) => i.phrases.some((p) => said === p || said.startsWith(`${p} `)));
  }

  async writePrompt(spark: SparkInfo): Promise<string> {
    return buildPrompt(spark, await this.ports.model.writeInstructions(spark));
  }

  nextOf(step: Step, value: string): string | null {
    if (step.next === null || typeof step.next === 'string') return step.next;
    return step.next[value] !== undefined ? step.next[value]! : (step.next['*'] ?? null);
  }

  async completeEvent(event: FlowEvent, status: StepStatus): Promise<void> {
    for (const step of this.flow.steps) {
      if (step.answer.kind === 'event' && step.answer.event === event) {
        await this.ports.objectives.setStatus(step.id, status);
        if (status === 'completed' && this.state.step === step.id) this.state.step = this.nextOf(step, 'done');
      }
    }
  }

  // — the turn —

  /** The message being answered, and what it was read as (per what it was read for). */
  private message = '';
  private readonly readings = new Map<string, Promise<Reading>>();

  read(ask: Ask, question = ''): Promise<Reading> {
    const key = JSON.stringify([ask.kind, 'field' in ask ? ask.field : '', 'keep' in ask ? ask.keep : false]);
    let reading = this.readings.get(key);
    if (!reading) {
      reading = this.understand(ask, question);
      this.readings.set(key, reading);
    }
    return reading;
  }

  /** The rules' reading; the model's instead when the rules are not sure (and it answers something usable). */
  private async understand(ask: Ask, question: string): Promise<Reading> {
    const rules = classifyReply(this.message, ask);
    // Free questions (the help steps) take the message as it is: no model is asked what they mean.
    if (rules.confidence >= SURE_ENOUGH || ask.kind === 'free') return rules;
    const step = askForModel(ask, question);
    const said = await this.ports.model.readReply({
      instructions: label(this.lang, msg('llmReadReply')),
      step,
      reply: this.message,
    });
    const model = said && readingOf(said, ask);
    return model ?? (rules.kind === 'change' ? { kind: 'other', confidence: rules.confidence } : rules);
  }

  markdown(text: FlowTextKey | I18n, vars: Record<string, string> = {}): string {
    return say(this.lang, this.i18n(text), vars);
  }

  async handle(text: string, fresh: boolean): Promise<void> {
    this.message = text;
    const start = isStartKeyword(text);
    const pending = this.state.dialog;
    if (pending) {
      const dialog = dialogFor(pending);
      const handled = start ? await dialog.resume?.(this, pending) : await dialog.reply(this, pending, text);
      if (handled) return;
      this.setDialog(undefined);
    }
    const intent = start ? undefined : this.intent(text);
    if (intent) return INTENTS[intent.action].run(this, text);
    if (start || fresh) {
      if (!fresh && this.state.step && this.state.step !== this.flow.start && !(await this.eventHappened()))
        this.say('resume');
      return this.askFrom(this.state.step);
    }
    const step = this.step(this.state.step) ?? this.step(this.flow.start)!;
    await answer(this, step, text);
  }

  /**
   * The step waits for an event that has happened (a document read): the chat goes straight on, without "let's
   * pick up where we left off" — nobody left (issue 18 walk: it said so after every upload).
   */
  private async eventHappened(): Promise<boolean> {
    const step = this.step(this.state.step);
    return step?.answer.kind === 'event' && (await this.ports.objectives.status(step.id)) === 'completed';
  }

  /** Says a step; steps with nothing to answer are said and passed through. */
  async askFrom(stepId: string | null): Promise<void> {
    let id = stepId;
    for (let guard = 0; id && guard < 20; guard += 1) {
      const step = this.step(id);
      if (!step) break;
      // An event that already happened (a document read meanwhile) needs no waiting.
      if (step.answer.kind === 'event' && (await this.ports.objectives.status(step.id)) === 'completed') {
        id = this.nextOf(step, 'done');
        continue;
      }
      // Answered in /new-spark already: done here too, without asking again.
      if (step.givenBy && (await this.ports.sparks.current())?.[step.givenBy]?.trim()) {
        if (step.objective) await this.ports.objectives.setStatus(step.id, 'completed');
        id = this.nextOf(step, '');
        continue;
      }
      const vars = await this.vars();
      const holds = conditions(vars, this.ports);
      for (const line of step.say) if (!line.when || (await holds(line.when))) this.say(line, vars);
      const show = step.show;
      if (show)
        await inEveryLanguageAsync(this.action, this.lang, (emit, lang) => renderCard(emit, lang, show, this.ports));
      if (!(step.answer.kind === 'help' && step.answer.quietFirst)) await this.widget(step, vars);
      this.state.step = step.id;
      if (step.answer.kind !== 'none') return;
      await this.apply(step, '');
      if (this.halted) return;
      if (step.objective) await this.ports.objectives.setStatus(step.id, 'completed');
      id = this.nextOf(step, '');
    }
    this.state.step = id;
  }

  async take(step: Step, value: string): Promise<void> {
    const spec = step.answer;
    await this.apply(step, value);
    if (this.halted) {
      this.state.step = step.id;
      return;
    }
    if (step.objective && (spec.kind !== 'event' || value === 'done'))
      await this.ports.objectives.setStatus(step.id, 'completed');
    if (step.confirm) this.say(step.confirm, await this.vars());
    await this.askFrom(this.nextOf(step, value));
  }

  async apply(step: Step, value: string): Promise<void> {
    for (const effect of step.effects ?? []) {
      const handler: EffectHandler = EFFECTS['do' in effect ? effect.do : effect.set];
      await handler.apply(this, value, 'key' in effect ? effect.key : undefined);
    }
  }
}
