/** What a step's answer changes: one handler per effect a definition may name (`effects` of a step). */

import { ICONS, PALETTES } from '../theme';
import type { EffectHandler, Turn } from '../turn';
import type { Lang } from '../types';

/** The Spark's options a step may set (`{ set: 'spark.option', key }`). */
const OPTIONS = ['business', 'description', 'purpose', 'tone'] as const;
export type SparkOption = (typeof OPTIONS)[number];

const set = (apply: (turn: Turn, value: string) => Promise<void>): EffectHandler => ({ apply });

/** The new-Spark assistant's last step: the Spark, from what the conversation gathered. */
const createSpark: EffectHandler = {
  writes: ['createdSparkId', 'createdSparkName'],
  async apply(turn, value) {
    const { sparks } = turn.ports;
    const v = turn.state.vars;
    const created = await sparks.create({
      name: v.business ?? value,
      business: v.business ?? '',
      description: v.description ?? '',
      purpose: v.purpose ?? '',
      language: (v.language as Lang | undefined) ?? turn.lang,
      ...(v.tone ? { tone: v.tone } : {}),
      ...(v.hours ? { hours: v.hours } : {}),
    });
    if ('limit' in created) {
      // The plan's Spark limit: say so, offer the plans, and stay on this step so that the next
      // message (after deleting a Spark or upgrading) tries again.
      turn.say('sparkLimit', { limit: String(created.limit) });
      turn.localAction('buttons', (l) => ({
        buttons: [{ label: l('sparkLimitPlans'), goto: '/billing?showPlans=true' }],
      }));
      turn.halted = true;
      return;
    }
    // Told the tone (or the hours) already: the instructions can be written now.
    if (v.tone || v.hours) {
      const spark = await sparks.current();
      if (spark) await sparks.update({ sysPrompt: await turn.writePrompt(spark) });
    }
    turn.setVar('createdSparkId', created.id);
    turn.setVar('createdSparkName', created.name);
    turn.state.sparkId = created.id;
    turn.action('event', { event: 'sparkCreated', sparkId: created.id, name: created.name });
  },
};

/** The Spark's instructions written again from its facts (after the tone, the language…). */
const buildSysPrompt: EffectHandler = {
  async apply(turn) {
    if (turn.takingFacts) return;
    const spark = await turn.ports.sparks.current();
    await turn.ports.sparks.update({ sysPrompt: spark ? await turn.writePrompt(spark) : '' });
  },
};

const createTest: EffectHandler = {
  writes: ['testId'],
  async apply(turn, value) {
    if (value === 'skip') return;
    const testId = await turn.ports.tests.create();
    if (testId) {
      turn.setVar('testId', testId);
      turn.action('event', { event: 'testCreated', testId });
    }
  },
};

/** Every effect, by the name a step gives it (`{ set: name }` takes the answer, `{ do: name }` acts). */
export const EFFECTS = {
  var: {
    apply: (turn, value, key) => {
      if (key) turn.setVar(key, value);
      return Promise.resolve();
    },
  },
  'profile.firstname': set((turn, value) => turn.ports.account.updateProfile({ firstname: value })),
  'profile.lastname': set((turn, value) => turn.ports.account.updateProfile({ lastname: value })),
  'profile.language': set((turn, value) => {
    turn.lang = value as Lang;
    return turn.ports.account.updateProfile({ language: value as Lang });
  }),
  'spark.name': set((turn, value) => turn.ports.sparks.update({ name: value })),
  'spark.initialMessage': set((turn, value) => turn.ports.sparks.update({ initialMessage: value })),
  'spark.language': set((turn, value) => turn.ports.sparks.update({ language: value as Lang })),
  'spark.palette': set((turn, value) => {
    const p = PALETTES.find((x) => x.id === value)!;
    return turn.ports.sparks.update({ palette: { name: p.id, primary: p.primary, secondary: p.secondary } });
  }),
  'spark.icon': set((turn, value) => turn.ports.sparks.update({ icon: ICONS.find((i) => i.id === value)!.icon })),
  'spark.option': {
    apply: (turn, value, key) =>
      OPTIONS.includes(key as SparkOption)
        ? turn.ports.sparks.update({ [key as SparkOption]: value })
        : Promise.resolve(),
  },
  createSpark,
  buildSysPrompt,
  createTest,
  deactivateAccount: {
    apply: (turn, value) => (value === 'yes' ? turn.ports.account.deactivate() : Promise.resolve()),
  },
} satisfies Record<string, EffectHandler>;

export type EffectName = keyof typeof EFFECTS;
