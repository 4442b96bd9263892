/** The interpreter of flow definitions: asks, reads answers without an LLM, applies effects, tracks
 * objectives. What it shows lives in widgets.ts, its texts in texts.ts (locales/<lang>/flows.json),
 * the Spark's instructions in prompt.ts, and what it needs from outside in ports.ts. */

import { MAX_TESTS_PER_SPARK, type ActionData } from '@sparks/contracts';
import { isStartKeyword } from '../composer';
import type { BusinessFacts } from './business';
import type { FlowOutput, PublishedSpark, RunContext, RunResult, SparkInfo } from './ports';
import { buildPrompt, TONE_TEXT } from './prompt';
import { label, msg, route, say, type FlowTextKey } from './texts';
import { ICONS, PALETTES } from './theme';
import type { Effect, Flow, FlowEvent, FlowState, Intent, Lang, Step, StepStatus } from './types';
import { isSkip, keepsCurrent, matchChoice, normalize, unlikeName, yesNo } from './understand';
import { SharingBrowser } from './sharing';
import { choicesFor, promptCard, renderCard, renderWidget, visible, type Emit } from './widgets';

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
  /** An effect refused (the plan's Spark limit): the flow stays on the step that applied it. */
  private halted = false;
  /** Confirmed facts are being taken: their steps' `buildSysPrompt` waits for all of them (one model call). */
  private takingFacts = false;

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

  private readonly action: Emit = (type, payload) => {
    this.outputs.push({ type: 'action', data: { type, content: '', ...payload } as unknown as ActionData });
  };

  private widget(step: Step, vars: Record<string, string>): Promise<void> {
    return renderWidget(this.action, this.lang, step, vars, this.ctx.ports);
  }

  private visible(choices: Parameters<typeof visible>[0], vars: Record<string, string>) {
    return visible(choices, vars, this.ctx.ports);
  }

  private async vars(): Promise<Record<string, string>> {
    const [profile, spark, newest] = await Promise.all([
      this.ctx.ports.profile(),
      this.ctx.ports.spark(),
      this.ctx.ports.newestSpark(),
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

  /** The SharePoint / OneDrive browser on this conversation's state. */
  private get browser(): SharingBrowser {
    return new SharingBrowser(
      { lang: this.lang, vars: this.state.vars, text: (c) => this.text(c), action: this.action },
      this.ctx.ports.sharing,
    );
  }

  async handle(text: string, fresh: boolean): Promise<void> {
    const start = isStartKeyword(text);
    // Browsing SharePoint or OneDrive: the hidden start keyword (a picked file was read) offers the browser again.
    if (start && this.state.awaiting === 'browse' && (await this.browser.again())) return;
    if (this.state.awaiting && !start && (await this.continueAwaiting(text))) return;
    this.state.awaiting = undefined;
    const intent = start ? undefined : this.intent(text);
    if (intent) return this.runIntent(intent, text);
    if (start || fresh) {
      if (!fresh && this.state.step && this.state.step !== this.flow.start && !(await this.eventHappened()))
        this.text(say(this.lang, msg('resume')));
      return this.askFrom(this.state.step);
    }
    const step = this.step(this.state.step) ?? this.step(this.flow.start)!;
    await this.answer(step, text);
  }

  /**
   * The message after "change instructions" is a draft shown for confirmation, saved only on yes, with an undo
   * (issue 18 item 4); an unusual value for a step is confirmed the same way (item 1). True when handled.
   */
  private async continueAwaiting(raw: string): Promise<boolean> {
    const text = raw.trim();
    const vars = this.state.vars;
    const yesNoButtons = (yes: FlowTextKey, no: FlowTextKey) =>
      this.action('buttons', {
        buttons: [
          { label: label(this.lang, msg(yes)), value: 'yes' },
          { label: label(this.lang, msg(no)), value: 'no' },
        ],
      });
    switch (this.state.awaiting) {
      case 'prompt': {
        if (this.intent(text)) return false;
        if (text.length < 20) {
          this.text(say(this.lang, msg('promptEmpty')));
          return true;
        }
        vars.draftPrompt = text;
        this.state.awaiting = 'promptConfirm';
        this.text(say(this.lang, msg('promptDraft')));
        promptCard(this.action, this.lang, text);
        yesNoButtons('promptSave', 'promptCancel');
        return true;
      }
      case 'promptConfirm': {
        const answer =
          yesNo(text) ?? (matchChoice(text, [{ value: 'yes', label: msg('promptSave') }]) ? 'yes' : undefined);
        const draft = vars.draftPrompt ?? '';
        delete vars.draftPrompt;
        this.state.awaiting = undefined;
        if (answer === 'yes' && draft) {
          const spark = await this.ctx.ports.spark();
          vars.previousPrompt = spark?.sysPrompt ?? '';
          await this.ctx.ports.updateSpark({ sysPrompt: draft });
          this.text(say(this.lang, msg('promptSavedUndo')));
          this.action('buttons', {
            buttons: [{ label: label(this.lang, msg('promptUndo')), value: 'undo instructions' }],
          });
        } else {
          this.text(say(this.lang, msg('promptCancelled')));
        }
        await this.askFrom(this.state.step);
        return true;
      }
      case 'valueConfirm': {
        const answer = yesNo(text);
        const draft = vars.draftValue ?? '';
        const step = this.step(this.state.step);
        if (!answer || !step) return false;
        delete vars.draftValue;
        this.state.awaiting = undefined;
        if (answer === 'yes') await this.take(step, draft);
        else {
          this.text(say(this.lang, msg('askAgain')));
          await this.widget(step, await this.vars());
        }
        return true;
      }
      case 'businessConfirm': {
        const answer = yesNo(text);
        const facts = JSON.parse(vars.draftFacts ?? '{}') as BusinessFacts;
        const step = this.step(this.state.step);
        if (!answer || !step) return false;
        delete vars.draftFacts;
        this.state.awaiting = undefined;
        if (answer === 'yes') await this.takeFacts(step, facts);
        else {
          this.text(say(this.lang, msg('understoodNo')));
          for (const line of step.say) this.text(say(this.lang, line, await this.vars()));
          await this.widget(step, await this.vars());
        }
        return true;
      }
      case 'deployWhich': {
        if (this.intent(text)) return false;
        const published = await this.ctx.ports.deployments();
        const spark = this.publishedNamed(published, text);
        if (spark) {
          this.confirmDeployment(spark);
          return true;
        }
        if (yesNo(text) === 'no' || published.length === 0) {
          this.dropDeployment();
          await this.offerAgain();
          return true;
        }
        this.text(say(this.lang, msg('chooseOne'), { options: published.map((p) => p.name).join(', ') }));
        this.deploymentButtons(published);
        return true;
      }
      case 'deployConfirm': {
        const answer =
          yesNo(text) ??
          (matchChoice(text, [
            { value: 'yes', label: msg('deployYesUnpublish') },
            { value: 'yes', label: msg('deployYesRotate') },
            { value: 'no', label: msg('deployNo') },
          ])?.value as 'yes' | 'no' | undefined);
        // Anything else is not a yes: nothing is changed, and the message is read as usual.
        if (!answer) {
          this.dropDeployment(false);
          return false;
        }
        const { deployAction: action, deploySparkId: sparkId, deploySparkName: name = '' } = vars;
        this.dropDeployment(false);
        if (answer === 'no' || !sparkId) {
          this.text(say(this.lang, msg('deployKept'), { name }));
          await this.offerAgain();
          return true;
        }
        if (action === 'unpublish') {
          const done = await this.ctx.ports.unpublish(sparkId);
          if (!done) this.text(say(this.lang, msg('deployNotPublished'), { name }));
          else {
            this.text(
              say(this.lang, msg('deployUnpublished'), {
                name,
                used: String(done.used),
                limit: String(done.limit),
              }),
            );
          }
        } else {
          const done = await this.ctx.ports.revokeDeployToken(sparkId);
          this.text(say(this.lang, msg(done ? 'deployRotated' : 'deployNotPublished'), { name }));
        }
        await this.offerAgain();
        return true;
      }
      case 'browse': {
        const intent = this.intent(text);
        if (intent) return false;
        const done = await this.browser.answer(text);
        if (done === 'handled') return true;
        this.state.awaiting = undefined;
        if (done === 'other') return false;
        // Done browsing: the builder goes on where it was (past the documents step once a file was read).
        await this.askFrom(this.state.step);
        return true;
      }
      case undefined:
        return false;
    }
  }

  // — the deploy assistant: unpublish a Spark or replace its code, always confirmed first —

  /** Forgets the pending unpublish or new code; when `say`, tells that nothing changed. */
  private dropDeployment(tell = true): true {
    const vars = this.state.vars;
    const name = vars.deploySparkName ?? '';
    delete vars.deployAction;
    delete vars.deploySparkId;
    delete vars.deploySparkName;
    this.state.awaiting = undefined;
    if (tell) this.text(say(this.lang, msg('deployKept'), { name }));
    return true;
  }

  /** The current step's buttons again (the used ones are disabled): the next thing is one click away. */
  private async offerAgain(): Promise<void> {
    const step = this.step(this.state.step) ?? this.step(this.flow.start);
    if (step) await this.widget(step, await this.vars());
  }

  /** The published Spark a text names (its name, any case or accents), if any. */
  private publishedNamed(published: PublishedSpark[], text: string): PublishedSpark | undefined {
    const said = normalize(text);
    const exact = matchChoice(
      text,
      published.map((p) => ({ value: p.sparkId, label: { es: p.name, en: p.name } })),
    );
    if (exact) return published.find((p) => p.sparkId === exact.value);
    // "unpublish Northwind": the name after the words of the request.
    return published.find((p) => normalize(p.name) && said.endsWith(` ${normalize(p.name)}`));
  }

  private deploymentButtons(published: PublishedSpark[]): void {
    this.action('buttons', { buttons: published.map((p) => ({ label: p.name, value: p.name })) });
  }

  /** "Unpublish" or "new code": which Spark (asked only when several are published), then a confirmation. */
  private async manageDeployment(action: 'unpublish' | 'rotate', text: string): Promise<void> {
    const published = await this.ctx.ports.deployments();
    if (published.length === 0) {
      this.text(say(this.lang, msg('deployNonePublished')));
      return;
    }
    this.state.vars.deployAction = action;
    const spark = published.length === 1 ? published[0] : this.publishedNamed(published, text);
    if (spark) return this.confirmDeployment(spark);
    this.state.awaiting = 'deployWhich';
    this.text(say(this.lang, msg(action === 'unpublish' ? 'deployWhichUnpublish' : 'deployWhichRotate')));
    this.deploymentButtons(published);
  }

  private confirmDeployment(spark: PublishedSpark): void {
    const vars = this.state.vars;
    vars.deploySparkId = spark.sparkId;
    vars.deploySparkName = spark.name;
    this.state.awaiting = 'deployConfirm';
    const unpublish = vars.deployAction === 'unpublish';
    this.text(say(this.lang, msg(unpublish ? 'deployConfirmUnpublish' : 'deployConfirmRotate'), { name: spark.name }));
    this.action('buttons', {
      buttons: [
        { label: label(this.lang, msg(unpublish ? 'deployYesUnpublish' : 'deployYesRotate')), value: 'yes' },
        { label: label(this.lang, msg('deployNo')), value: 'no' },
      ],
    });
  }

  /**
   * An answer that tells more about the business than the step asks (issue 17 item 4): read as a whole;
   * when it says at least two things, or something else than the step's own, it is shown for
   * confirmation. True when it was.
   */
  private async understood(step: Step, text: string): Promise<boolean> {
    if (!step.fact || text.split(/\s+/).length < 4) return false;
    const facts = await this.ctx.ports.readBusiness(text, this.lang);
    const said = (Object.keys(facts) as Array<keyof BusinessFacts>).filter((k) => facts[k]);
    if (said.length === 0 || (said.length === 1 && said[0] === step.fact)) return false;
    this.state.vars.draftFacts = JSON.stringify(facts);
    this.state.awaiting = 'businessConfirm';
    const l = (key: FlowTextKey) => label(this.lang, msg(key));
    const tone = facts.tone && label(this.lang, msg(TONE_TEXT[facts.tone]));
    this.text(say(this.lang, msg('understood')));
    this.action('card', {
      title: l('understoodTitle'),
      info: [
        ...(facts.name ? [{ label: l('factName'), value: facts.name }] : []),
        ...(facts.description ? [{ label: l('factDescription'), value: facts.description }] : []),
        ...(tone ? [{ label: l('factTone'), value: tone }] : []),
        ...(facts.hours ? [{ label: l('factHours'), value: facts.hours }] : []),
      ],
    });
    this.action('buttons', {
      buttons: [
        { label: l('understoodYes'), value: 'yes' },
        { label: l('understoodNoButton'), value: 'no' },
      ],
    });
    return true;
  }

  /**
   * Takes confirmed facts: each fills the step that asks for it (its effects, its objective), the hours
   * go to the Spark; the Spark's instructions are written from all of it and the flow goes on with the
   * first step still unanswered.
   */
  private async takeFacts(current: Step, facts: BusinessFacts): Promise<void> {
    const ports = this.ctx.ports;
    const filled = this.flow.steps.filter((s) => s.fact && facts[s.fact]);
    this.takingFacts = true;
    try {
      for (const step of filled) {
        await this.apply(step, facts[step.fact!]!);
        if (step.objective) await ports.setStepStatus(step.id, 'completed');
      }
    } finally {
      this.takingFacts = false;
    }
    if (facts.hours) {
      this.state.vars.hours = facts.hours;
      await ports.updateSpark({ hours: facts.hours });
    }
    if (facts.tone) this.state.vars.tone = facts.tone;
    const spark = await ports.spark();
    if (spark) {
      const sysPrompt = await this.writePrompt(spark);
      await ports.updateSpark({ sysPrompt });
      this.text(say(this.lang, msg('understoodSaved')));
      promptCard(this.action, this.lang, sysPrompt);
    }
    // On from the step it was asked at, past every step the facts answered.
    let next: string | null = current.id;
    for (let guard = 0; next && guard < 20; guard += 1) {
      const step = this.step(next);
      if (!step?.fact || !facts[step.fact]) break;
      next = this.nextOf(step, facts[step.fact]!);
    }
    await this.askFrom(next);
  }

  /**
   * The Spark's instructions: the model's part about the business (when a model wrote one that passes
   * `cleanInstructions`) inside the template's fixed first sentence and rules; the template alone otherwise.
   */
  private async writePrompt(spark: SparkInfo): Promise<string> {
    return buildPrompt(spark, await this.ctx.ports.writeInstructions(spark));
  }

  private intent(text: string): Intent | undefined {
    const said = normalize(text);
    return this.flow.intents?.find((i) => i.phrases.some((p) => said === p || said.startsWith(`${p} `)));
  }

  private async runIntent(intent: Intent, text: string): Promise<void> {
    switch (intent.action) {
      case 'unpublish':
      case 'rotateToken':
        return this.manageDeployment(intent.action === 'unpublish' ? 'unpublish' : 'rotate', text);
      case 'showPrompt': {
        const spark = await this.ctx.ports.spark();
        if (spark) promptCard(this.action, this.lang, spark.sysPrompt);
        return;
      }
      case 'editPrompt':
        this.state.awaiting = 'prompt';
        this.text(say(this.lang, msg('askPrompt')));
        return;
      case 'undoPrompt': {
        const previous = this.state.vars.previousPrompt;
        if (previous === undefined) {
          this.text(say(this.lang, msg('promptNothingToUndo')));
          return;
        }
        delete this.state.vars.previousPrompt;
        await this.ctx.ports.updateSpark({ sysPrompt: previous });
        this.text(say(this.lang, msg('promptUndone')));
        return this.askFrom(this.state.step);
      }
      case 'testSatisfactory':
        await this.completeEvent('test.satisfactory', 'completed');
        this.text(say(this.lang, msg('testOk')));
        return this.askFrom(this.state.step);
      case 'testNotSatisfactory': {
        await this.completeEvent('test.satisfactory', 'error');
        this.text(say(this.lang, msg('testKo')));
        // The test is gone (the page deletes it with the answer): a way to the next one, once the changes are made.
        const again = label(this.lang, msg('newTestButton'));
        this.action('buttons', { buttons: [{ label: again, value: again }] });
        return;
      }
      case 'newTest':
        return this.newTest();
      case 'browseSharing':
        if (await this.browser.start()) this.state.awaiting = 'browse';
        return;
      case 'restart':
        this.state.step = this.flow.start;
        return this.askFrom(this.flow.start);
    }
  }

  /**
   * "Create a new test", from any step (the button after a test that went badly): a test the owner then opens;
   * a conversation that was at the test goes on from judging the new one. At the limit it says so, instead of
   * reopening an old test as the flow's own step does.
   */
  private async newTest(): Promise<void> {
    const ports = this.ctx.ports;
    if ((await ports.countTests()) >= MAX_TESTS_PER_SPARK) {
      this.text(say(this.lang, msg('newTestLimit'), { max: String(MAX_TESTS_PER_SPARK) }));
      return;
    }
    const testId = await ports.createTest();
    if (!testId) return this.text(say(this.lang, msg('newTestNoSpark')));
    this.state.vars.testId = testId;
    this.action('event', { event: 'testCreated', testId });
    this.text(say(this.lang, msg('newTestCreated')));
    const judge = this.flow.steps.find((s) => s.answer.kind === 'event' && s.answer.event === 'test.satisfactory');
    const creates = this.flow.steps.find((s) => s.effects?.some((e) => 'do' in e && e.do === 'createTest'));
    if (creates && this.state.step === creates.id && creates.objective)
      await ports.setStepStatus(creates.id, 'completed');
    if (judge && (this.state.step === judge.id || this.state.step === creates?.id)) return this.askFrom(judge.id);
    const vars = await this.vars();
    this.action('buttons', {
      buttons: [{ label: label(this.lang, msg('newTestOpen')), goto: route('/spark/{sparkId}/test/{testId}', vars) }],
    });
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

  /** Says a step; steps with nothing to answer are said and passed through. */
  /**
   * The step waits for an event that has happened (a document read): the chat goes straight on, without "let's
   * pick up where we left off" — nobody left (issue 18 walk: it said so after every upload).
   */
  private async eventHappened(): Promise<boolean> {
    const step = this.state.step ? this.step(this.state.step) : undefined;
    return step?.answer.kind === 'event' && (await this.ctx.ports.stepStatus(step.id)) === 'completed';
  }

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
      // Answered in /new-spark already: done here too, without asking again.
      if (step.givenBy && (await this.ctx.ports.spark())?.[step.givenBy]?.trim()) {
        if (step.objective) await this.ctx.ports.setStepStatus(step.id, 'completed');
        id = this.nextOf(step, '');
        continue;
      }
      const vars = await this.vars();
      for (const line of step.say) this.text(say(this.lang, line, vars));
      if (step.show) await renderCard(this.action, this.lang, step.show, this.ctx.ports);
      if (!(step.answer.kind === 'help' && step.answer.quietFirst)) await this.widget(step, vars);
      this.state.step = step.id;
      if (step.answer.kind !== 'none') return;
      await this.apply(step, '');
      if (this.halted) return;
      if (step.objective) await this.ctx.ports.setStepStatus(step.id, 'completed');
      id = this.nextOf(step, '');
    }
    this.state.step = id;
  }

  private async reask(step: Step, why: string): Promise<void> {
    const vars = await this.vars();
    this.text(say(this.lang, msg('reask')) + why);
    await this.widget(step, vars);
  }

  private async answer(step: Step, raw: string): Promise<void> {
    const text = raw.trim();
    const spec = step.answer;
    const vars = await this.vars();
    const optionsList = async () =>
      (await this.visible(choicesFor(spec), vars)).map((c) => label(this.lang, c.label, vars)).join(', ');
    let value: string;
    if (await this.understood(step, text)) return;
    switch (spec.kind) {
      case 'text': {
        // "Keep", or agreeing or refusing ("está bien así", "no"): the current value stays.
        if (spec.keep && (normalize(text) === 'keep' || keepsCurrent(text))) {
          if (step.objective) await this.ctx.ports.setStepStatus(step.id, 'completed');
          this.text(say(this.lang, msg('kept'), await this.vars()));
          return this.askFrom(this.nextOf(step, ''));
        }
        if (!text) return this.reask(step, say(this.lang, msg('empty')));
        if (spec.min && text.length < spec.min)
          return this.reask(step, say(this.lang, msg('tooShort'), { min: String(spec.min) }));
        if (spec.max && text.length > spec.max)
          return this.reask(step, say(this.lang, msg('tooLong'), { max: String(spec.max) }));
        if (spec.name && unlikeName(text)) {
          this.state.vars.draftValue = text;
          this.state.awaiting = 'valueConfirm';
          this.text(say(this.lang, msg('confirmValue'), { draftValue: text }));
          this.action('buttons', {
            buttons: [
              { label: label(this.lang, msg('confirmValueYes')), value: 'yes' },
              { label: label(this.lang, msg('confirmValueNo')), value: 'no' },
            ],
          });
          return;
        }
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
        const choice = matchChoice(text, await this.visible(choicesFor(spec), vars));
        if (!choice) return this.reask(step, say(this.lang, msg('chooseOne'), { options: await optionsList() }));
        value = choice.value;
        break;
      }
      case 'event': {
        const choice = matchChoice(text, spec.choices ?? []);
        if ((await this.ctx.ports.stepStatus(step.id)) === 'completed') value = 'done';
        else if (spec.skippable && (isSkip(text) || choice?.value === 'skip')) value = 'skip';
        else {
          this.text(say(this.lang, spec.skippable ? msg('waiting') : msg('waitingNoSkip')));
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
    await this.take(step, value);
  }

  /** Takes `value` as the answer to `step`: its effects, its objective, its confirmation, the next step. */
  private async take(step: Step, value: string): Promise<void> {
    const spec = step.answer;
    await this.apply(step, value);
    if (this.halted) {
      this.state.step = step.id;
      return;
    }
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
            ...(v.tone ? { tone: v.tone } : {}),
            ...(v.hours ? { hours: v.hours } : {}),
          });
          if ('limit' in created) {
            // The plan's Spark limit: say so, offer the plans, and stay on this step so that the next
            // message (after deleting a Spark or upgrading) tries again.
            this.text(say(this.lang, msg('sparkLimit'), { limit: String(created.limit) }));
            this.action('buttons', {
              buttons: [{ label: label(this.lang, msg('sparkLimitPlans')), goto: '/billing?showPlans=true' }],
            });
            this.halted = true;
            return;
          }
          // Told the tone (or the hours) already: the instructions can be written now.
          if (v.tone || v.hours) {
            const spark = await ports.spark();
            if (spark) await ports.updateSpark({ sysPrompt: await this.writePrompt(spark) });
          }
          this.state.vars.createdSparkId = created.id;
          this.state.vars.createdSparkName = created.name;
          this.state.sparkId = created.id;
          this.action('event', { event: 'sparkCreated', sparkId: created.id, name: created.name });
          return;
        }
        case 'buildSysPrompt': {
          if (this.takingFacts) return;
          const spark = await ports.spark();
          return ports.updateSpark({ sysPrompt: spark ? await this.writePrompt(spark) : '' });
        }
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
}
