import { BILLING_STEPS, texts } from '@sparks/core';
import type { Flow, Step } from '../types';

/** /profile: the user card, names and language. */
export const profileFlow: Flow = {
  name: 'profile',
  objectivesKey: 'profile',
  objectives: [{ id: 'profile', title: texts('assistants.profile.objectives.profile.title') }],
  start: 'card',
  steps: [
    {
      id: 'card',
      say: [texts('assistants.profile.card.say.0')],
      show: 'userCard',
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'firstname',
            label: texts('assistants.profile.card.firstname.label'),
            synonyms: ['nombre', 'first name', 'name'],
          },
          {
            value: 'lastname',
            label: texts('assistants.profile.card.lastname.label'),
            synonyms: ['apellidos', 'apellido', 'last name', 'surname'],
          },
          {
            value: 'language',
            label: texts('assistants.profile.card.language.label'),
            synonyms: ['idioma', 'language', 'lengua'],
          },
          {
            value: 'done',
            label: texts('assistants.profile.card.done.label'),
            synonyms: ['nada', 'nothing', 'ninguno', 'none'],
          },
        ],
      },
      next: { firstname: 'firstname', lastname: 'lastname', language: 'language', done: 'bye' },
    },
    {
      id: 'firstname',
      objective: 'profile',
      title: texts('assistants.profile.firstname.title'),
      say: [texts('assistants.profile.firstname.say.0')],
      answer: { kind: 'text', min: 1, max: 80 },
      effects: [{ set: 'profile.firstname' }],
      confirm: texts('assistants.profile.firstname.confirm'),
      next: 'card',
    },
    {
      id: 'lastname',
      objective: 'profile',
      title: texts('assistants.profile.lastname.title'),
      say: [texts('assistants.profile.lastname.say.0')],
      answer: { kind: 'text', min: 1, max: 80 },
      effects: [{ set: 'profile.lastname' }],
      confirm: texts('assistants.profile.lastname.confirm'),
      next: 'card',
    },
    {
      id: 'language',
      objective: 'profile',
      title: texts('assistants.profile.language.title'),
      say: [texts('assistants.profile.language.say.0')],
      answer: { kind: 'language' },
      effects: [{ set: 'profile.language' }],
      confirm: texts('assistants.profile.language.confirm'),
      next: 'card',
    },
    {
      id: 'bye',
      say: [texts('assistants.profile.bye.say.0')],
      answer: { kind: 'none' },
      next: null,
    },
  ],
};

/** /settings: language and account, including deactivation (docs/product.md §4 'Disable user'). */
export const settingsFlow: Flow = {
  name: 'settings',
  start: 'menu',
  steps: [
    {
      id: 'menu',
      say: [texts('assistants.settings.menu.say.0')],
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'language',
            label: texts('assistants.settings.menu.language.label'),
            synonyms: ['idioma', 'language'],
          },
          { value: 'profile', label: texts('assistants.settings.menu.profile.label'), goto: '/profile' },
          {
            value: 'deactivate',
            label: texts('assistants.settings.menu.deactivate.label'),
            synonyms: ['desactivar', 'deactivate', 'borrar cuenta', 'delete account', 'disable'],
          },
        ],
      },
      next: { language: 'language', deactivate: 'deactivate', '*': 'menu' },
    },
    {
      id: 'language',
      say: [texts('assistants.settings.language.say.0')],
      answer: { kind: 'language' },
      effects: [{ set: 'profile.language' }],
      confirm: texts('assistants.settings.language.confirm'),
      next: 'menu',
    },
    {
      id: 'deactivate',
      say: [texts('assistants.settings.deactivate.say.0')],
      answer: { kind: 'yesno' },
      effects: [{ do: 'deactivateAccount' }],
      next: { yes: 'deactivated', no: 'kept' },
    },
    {
      id: 'kept',
      say: [texts('assistants.settings.kept.say.0')],
      answer: { kind: 'none' },
      next: 'menu',
    },
    {
      id: 'deactivated',
      say: [texts('assistants.settings.deactivated.say.0')],
      answer: { kind: 'none' },
      next: null,
    },
  ],
};

/** After e-mail verification: welcome, name, language, Sparks in three steps, first Spark. */
export const onboardingFlow: Flow = {
  name: 'onboarding',
  start: 'welcome',
  steps: [
    {
      id: 'welcome',
      say: [texts('assistants.onboarding.welcome.say.0')],
      answer: { kind: 'none' },
      next: 'name',
    },
    {
      id: 'name',
      say: [texts('assistants.onboarding.name.say.0')],
      answer: { kind: 'text', min: 1, max: 80 },
      effects: [{ set: 'profile.firstname' }],
      next: 'language',
    },
    {
      id: 'language',
      say: [texts('assistants.onboarding.language.say.0')],
      answer: { kind: 'language' },
      effects: [{ set: 'profile.language' }],
      next: 'explain',
    },
    {
      id: 'explain',
      say: [texts('assistants.onboarding.explain.say.0')],
      show: 'explainSparks',
      answer: { kind: 'none' },
      next: 'offer',
    },
    {
      id: 'offer',
      say: [texts('assistants.onboarding.offer.say.0')],
      answer: {
        kind: 'choice',
        widget: 'onboarding',
        choices: [
          { value: 'create', label: texts('assistants.onboarding.offer.create.label'), goto: '/new-spark' },
          { value: 'skip', label: texts('assistants.onboarding.offer.skip.label'), goto: '/' },
        ],
      },
      next: 'offer',
    },
  ],
};

/**
 * A billing objective step done outside the chat, where it happens (the server marks it): a plan's checkout started,
 * a plan paid, a pack paid. Never said in the conversation.
 */
const doneElsewhere = (id: string, objective: string, title: NonNullable<Step['title']>): Step => ({
  id,
  objective,
  title,
  say: [],
  answer: { kind: 'none' },
  next: null,
});

/**
 * The billing assistant (/billing, issue 15): the user's plan and usage (a user card), the plans on sale from the
 * catalogue (a card each), and buttons that open the plans popup and the credit-pack popup, whose choices go to
 * checkout. After a purchase ("I have just bought…", "I have just started the Ruby plan") or asking to start a plan it
 * shows the cards again, read anew.
 * Its objectives: seeing the plan and usage (marked here, when the card is shown), choosing and paying a plan and
 * buying interactions (marked by the server: the checkout started, the fulfilment of either payment provider).
 */
export const billingFlow: Flow = {
  name: 'billing',
  objectivesKey: 'billing',
  objectives: [
    { id: 'plan', title: texts('assistants.billing.objectives.plan.title') },
    { id: 'subscribe', title: texts('assistants.billing.objectives.subscribe.title') },
    { id: 'credits', title: texts('assistants.billing.objectives.credits.title') },
  ],
  start: 'overview',
  steps: [
    {
      id: 'overview',
      say: [texts('assistants.billing.overview.say.0')],
      show: 'usageCard',
      answer: { kind: 'none' },
      next: BILLING_STEPS.usage,
    },
    {
      // Passed through right after the card: seeing it completes the first objective.
      id: BILLING_STEPS.usage,
      objective: 'plan',
      title: texts('assistants.billing.usage.title'),
      say: [],
      answer: { kind: 'none' },
      next: 'plans',
    },
    {
      id: 'plans',
      say: [texts('assistants.billing.plans.say.0')],
      show: 'plansCard',
      answer: {
        kind: 'help',
        choices: [
          {
            value: 'plans',
            label: texts('assistants.billing.plans.plans.label'),
            synonyms: ['start a plan', 'empezar un plan', 'planes', 'plans', 'upgrade', 'mejorar mi plan'],
            goto: '/billing?showPlans=true',
          },
          {
            value: 'credits',
            label: texts('assistants.billing.plans.credits.label'),
            synonyms: ['buy more interactions', 'comprar mas interacciones', 'credits', 'creditos'],
            goto: '/billing?showCredits=true',
          },
          {
            value: 'usage',
            label: texts('assistants.billing.plans.usage.label'),
            synonyms: [
              'just bought',
              'acabo de comprar',
              'just started',
              'acabo de empezar',
              'usage',
              'consumo',
              'my plan',
              'mi plan',
            ],
          },
        ],
      },
      next: { usage: 'overview', '*': 'plans' },
    },
    doneElsewhere(BILLING_STEPS.choose, 'subscribe', texts('assistants.billing.choose.title')),
    doneElsewhere(BILLING_STEPS.pay, 'subscribe', texts('assistants.billing.pay.title')),
    doneElsewhere(BILLING_STEPS.credits, 'credits', texts('assistants.billing.credits.title')),
  ],
};
