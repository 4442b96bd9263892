/** What a step shows besides its text: the answer widgets (options, buttons, palettes, icons) and the
 * cards (the user's details, the widget preview, the instructions, the three steps). */

import type { ActionData } from '@sparks/contracts';
import { FREE_PLAN_NAME } from '@sparks/domain/billing';
import { ICONS, PALETTES } from './theme';
import type { FlowPorts } from './ports';
import { label, msg, route } from './texts';
import type { AnswerSpec, Choice, Condition, Lang, Step } from './types';
import { LANGUAGE_CHOICES } from './understand';
import { FIELD_CHOICES } from './understanding/fields';

/** The fields of the action `T` of the contracts besides its type and content. */
export type ActionFields<T extends ActionData['type']> =
  Extract<ActionData, { type: T }> extends infer A ? (A extends unknown ? Omit<A, 'type' | 'content'> : never) : never;

/** Adds one action message (a widget, a card or an event of `@sparks/contracts`) to the conversation. */
export type Emit = <T extends ActionData['type']>(type: T, payload: ActionFields<T>) => void;

/** The choices a step's answer offers, before conditions. */
export function choicesFor(spec: AnswerSpec): Choice[] {
  switch (spec.kind) {
    case 'choice':
    case 'help':
      return spec.choices;
    case 'event':
      return spec.choices ?? [];
    case 'yesno':
      return [
        { value: 'yes', label: msg('yes') },
        { value: 'no', label: msg('no') },
      ];
    case 'language':
      return LANGUAGE_CHOICES;
    case 'palette':
      return FIELD_CHOICES.palette!;
    case 'icon':
      return FIELD_CHOICES.icon!;
    case 'text':
    case 'none':
      return [];
  }
}

/** A reader of conditions for one moment: each port is asked once however many conditions need it. */
export function conditions(vars: Record<string, string>, ports: FlowPorts): (condition: Condition) => Promise<boolean> {
  let allowance: ReturnType<FlowPorts['deploy']['allowance']> | undefined;
  const plan = () => (allowance ??= ports.deploy.allowance());
  const can = async () => {
    const a = await plan();
    return a.published || a.used < a.limit;
  };
  const holds: Record<Condition, () => Promise<boolean>> = {
    hasSparks: () => Promise.resolve(!!vars.newestSparkId),
    hasTests: async () => (await ports.tests.count()) > 0,
    hasDeployments: async () => (await ports.deploy.published()).length > 0,
    canPublish: can,
    cannotPublish: async () => !(await can()),
    publishNotIncluded: async () => !(await can()) && (await plan()).limit === 0,
    publishFull: async () => !(await can()) && (await plan()).limit > 0,
  };
  return (condition) => holds[condition]();
}

/** The choices whose condition holds now. */
export async function visible(choices: Choice[], vars: Record<string, string>, ports: FlowPorts): Promise<Choice[]> {
  const holds = conditions(vars, ports);
  const out: Choice[] = [];
  for (const c of choices) if (!c.when || (await holds(c.when))) out.push(c);
  return out;
}

/** A choice as a button or option: a route of the app, an external link, or a value to answer with. */
function renderChoice(lang: Lang, c: Choice, vars: Record<string, string>) {
  return {
    label: label(lang, c.label, vars),
    ...(c.goto ? { goto: route(c.goto, vars) } : c.link ? { link: c.link } : { value: c.value }),
  };
}

/** The widget that answers a step. */
export async function renderWidget(
  emit: Emit,
  lang: Lang,
  step: Step,
  vars: Record<string, string>,
  ports: FlowPorts,
): Promise<void> {
  const spec = step.answer;
  const render = (c: Choice) => renderChoice(lang, c, vars);
  switch (spec.kind) {
    case 'choice':
    case 'help':
    case 'event': {
      const choices = await visible(choicesFor(spec), vars, ports);
      if (choices.length === 0) break;
      const kind = spec.kind === 'choice' ? (spec.widget ?? 'options') : 'buttons';
      if (kind === 'buttons') emit('buttons', { buttons: choices.map(render) });
      else if (kind === 'onboarding') emit('onboarding', { onboarding: choices.map(render) });
      else emit('options', { options: choices.map(render) });
      break;
    }
    case 'yesno':
      emit('buttons', { buttons: choicesFor(spec).map(render) });
      break;
    case 'language':
      emit('options', { options: LANGUAGE_CHOICES.map(render) });
      break;
    case 'palette':
      emit('colorPalette', {
        palettes: PALETTES.map((p) => ({ name: p.name[lang], primary: p.primary, secondary: p.secondary })),
      });
      break;
    case 'icon': {
      // The icons show in the palette just picked (issue 18 item 5), not in the app's own colours.
      const palette = (await ports.sparks.current())?.palette;
      emit('iconSelector', {
        icons: ICONS.map((i) => ({ name: i.name[lang], icon: i.icon })),
        ...(palette ? { palette: { primary: palette.primary, secondary: palette.secondary } } : {}),
      });
      break;
    }
    case 'text':
      if (spec.keep) emit('buttons', { buttons: [{ label: label(lang, spec.keep, vars), value: 'keep' }] });
      break;
    case 'none':
      break;
  }
}

/** The card with the Spark's instructions. */
export function promptCard(emit: Emit, lang: Lang, sysPrompt: string): void {
  emit('card', {
    title: label(lang, msg('promptCardTitle')),
    info: [{ label: label(lang, msg('promptLabel')), value: sysPrompt }],
  });
}

/** The card a step shows before its question. */
export async function renderCard(emit: Emit, lang: Lang, kind: NonNullable<Step['show']>, ports: FlowPorts) {
  const l = (key: Parameters<typeof msg>[0]) => label(lang, msg(key));
  if (kind === 'userCard') {
    const p = await ports.account.profile();
    emit('userCard', {
      title: l('userCardTitle'),
      info: [
        { type: l('userFirstname'), result: p.firstname || '—' },
        { type: l('userLastname'), result: p.lastname || '—' },
        { type: l('userEmail'), result: p.username },
        // The account's language is the interface's (one setting, web useAccountLanguage): each language's card
        // names its own, so that the card read after a switch (issue 34 item 3) says the language now chosen.
        { type: l('userLanguage'), result: label(lang, msg('ownLanguageName')) },
        // The default plan's name is a key of the data (FREE_PLAN_NAME); users read it in their language.
        { type: l('userPlan'), result: p.plan === FREE_PLAN_NAME ? l('freePlanName') : p.plan },
      ],
    });
  } else if (kind === 'usageCard') {
    const b = await ports.account.billing();
    const n = (value: number) => new Intl.NumberFormat(lang).format(value);
    const planName = b.plan === FREE_PLAN_NAME ? l('freePlanName') : b.plan;
    emit('userCard', {
      title: l('usageCardTitle'),
      info: [
        { type: l('userPlan'), result: planName },
        ...(b.paid
          ? []
          : [
              {
                type: l('usageTrial'),
                result: b.trialActive
                  ? label(lang, msg('usageTrialLeft'), { days: String(b.trialDaysLeft) })
                  : l('usageTrialEnded'),
              },
            ]),
        {
          type: l('usageInteractions'),
          result: label(lang, msg('usageOf'), { used: n(b.usage), limit: n(b.limit) }),
        },
        { type: l('usageCredits'), result: n(b.credits) },
      ],
    });
  } else if (kind === 'plansCard') {
    const b = await ports.account.billing();
    const n = (value: number) => new Intl.NumberFormat(lang).format(value);
    const money = (cents: number, currency: string) =>
      new Intl.NumberFormat(lang, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
    for (const plan of b.plans) {
      emit('card', {
        title: plan.name === b.plan && b.paid ? label(lang, msg('planCurrent'), { name: plan.name }) : plan.name,
        info: [
          {
            label: l('planPrice'),
            value: label(lang, msg('planPerMonth'), { price: money(plan.unitAmount, plan.currency) }),
          },
          { label: l('usageInteractions'), value: label(lang, msg('planPerMonth'), { price: n(plan.interactions) }) },
          { label: l('planIntegrations'), value: n(plan.deployments) },
          { label: l('planSparks'), value: n(plan.sparks) },
          { label: l('planDocuments'), value: n(plan.documents) },
          ...(plan.documentSharing ? [{ label: l('planDocumentSharing'), value: l('yes') }] : []),
        ],
      });
    }
  } else if (kind === 'widgetPreview') {
    const s = await ports.sparks.current();
    if (s) {
      emit('widgetPreview', {
        title: l('previewTitle'),
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
    const s = await ports.sparks.current();
    if (s) promptCard(emit, lang, s.sysPrompt);
  } else {
    emit('card', {
      title: l('explainTitle'),
      info: [
        { label: l('explain1Label'), value: l('explain1Value') },
        { label: l('explain2Label'), value: l('explain2Value') },
        { label: l('explain3Label'), value: l('explain3Value') },
      ],
    });
  }
}
