/**
 * One turn of a flow: the interpreter of definitions. It hands the message to the pending dialog or to an intent
 * (handlers/index.ts), else reads it as the answer to the current step, applies the step's effects (handlers) and
 * says the next steps. It knows no dialog, intent or effect by name.
 */

import type { ActionData } from '@sparks/contracts';
import { isStartKeyword } from '../composer';
import { dialogFor, EFFECTS, INTENTS } from './handlers';
import { offerFacts } from './handlers/facts';
import { confirmValue } from './handlers/value';
import type { FlowOutput, FlowPorts, SparkInfo } from './ports';
import { buildPrompt } from './prompt';
import type { DialogState, FlowState } from './state';
import { label, msg, route, say, type FlowTextKey } from './texts';
import type { EffectHandler, Turn } from './turn';
import type { Flow, FlowEvent, I18n, Intent, Lang, Step, StepStatus } from './types';
import { isSkip, keepsCurrent, matchChoice, normalize, unlikeName, yesNo } from './understand';
import { choicesFor, renderCard, renderWidget, visible, type Emit } from './widgets';

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

  say(text: FlowTextKey | I18n, vars: Record<string, string> = {}): void {
    this.text(say(this.lang, this.i18n(text), vars));
  }

  label(text: FlowTextKey | I18n, vars: Record<string, string> = {}): string {
    return label(this.lang, this.i18n(text), vars);
  }

  readonly action: Emit = (type, payload) => {
    this.outputs.push({ type: 'action', data: { type, content: '', ...payload } as unknown as ActionData });
  };

  yesNoButtons(yes: FlowTextKey, no: FlowTextKey): void {
    this.action('buttons', {
      buttons: [
        { label: this.label(yes), value: 'yes' },
        { label: this.label(no), value: 'no' },
      ],
    });
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
    return renderWidget(this.action, this.lang, step, vars ?? (await this.vars()), this.ports);
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

  async handle(text: string, fresh: boolean): Promise<void> {
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
    await this.answer(step, text);
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
      for (const line of step.say) this.say(line, vars);
      if (step.show) await renderCard(this.action, this.lang, step.show, this.ports);
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

  private async reask(step: Step, why: string): Promise<void> {
    this.text(say(this.lang, msg('reask')) + why);
    await this.widget(step);
  }

  private async answer(step: Step, raw: string): Promise<void> {
    const text = raw.trim();
    const spec = step.answer;
    const vars = await this.vars();
    const optionsList = async () =>
      (await visible(choicesFor(spec), vars, this.ports)).map((c) => label(this.lang, c.label, vars)).join(', ');
    let value: string;
    if (await offerFacts(this, step, text)) return;
    switch (spec.kind) {
      case 'text': {
        // "Keep", or agreeing or refusing ("está bien así", "no"): the current value stays.
        if (spec.keep && (normalize(text) === 'keep' || keepsCurrent(text))) {
          if (step.objective) await this.ports.objectives.setStatus(step.id, 'completed');
          this.say('kept', await this.vars());
          return this.askFrom(this.nextOf(step, ''));
        }
        if (!text) return this.reask(step, say(this.lang, msg('empty')));
        if (spec.min && text.length < spec.min)
          return this.reask(step, say(this.lang, msg('tooShort'), { min: String(spec.min) }));
        if (spec.max && text.length > spec.max)
          return this.reask(step, say(this.lang, msg('tooLong'), { max: String(spec.max) }));
        if (spec.name && unlikeName(text)) return confirmValue(this, text);
        value = text;
        break;
      }
      case 'yesno': {
        const yn = yesNo(text);
        if (!yn) return this.reask(step, say(this.lang, msg('yesNo')));
        value = yn;
        break;
      }
      case 'choice':
      case 'language':
      case 'palette':
      case 'icon': {
        const choice = matchChoice(text, await visible(choicesFor(spec), vars, this.ports));
        if (!choice) return this.reask(step, say(this.lang, msg('chooseOne'), { options: await optionsList() }));
        value = choice.value;
        break;
      }
      case 'event': {
        const choice = matchChoice(text, spec.choices ?? []);
        if ((await this.ports.objectives.status(step.id)) === 'completed') value = 'done';
        else if (spec.skippable && (isSkip(text) || choice?.value === 'skip')) value = 'skip';
        else return this.say(spec.skippable ? 'waiting' : 'waitingNoSkip');
        break;
      }
      case 'help': {
        const choice = matchChoice(text, await visible(spec.choices, vars, this.ports));
        if (!choice) {
          this.text(await this.ports.help.answer(text, this.lang));
          return this.widget(step, vars);
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
    await this.take(step, value);
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
