import { BILLING_STEPS } from '@sparks/core';
import type { Flow, Step } from '../types';

/** /profile: the user card, names and language. */
export const profileFlow: Flow = {
  name: 'profile',
  objectivesKey: 'profile',
  objectives: [{ id: 'profile', title: { es: 'Completa tu perfil', en: 'Complete your profile' } }],
  start: 'card',
  steps: [
    {
      id: 'card',
      say: [
        {
          es: 'Estos son tus datos. ¿Qué quieres cambiar?',
          en: 'These are your details. What would you like to change?',
        },
      ],
      show: 'userCard',
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'firstname',
            label: { es: 'Mi nombre', en: 'My first name' },
            synonyms: ['nombre', 'first name', 'name'],
          },
          {
            value: 'lastname',
            label: { es: 'Mis apellidos', en: 'My last name' },
            synonyms: ['apellidos', 'apellido', 'last name', 'surname'],
          },
          {
            value: 'language',
            label: { es: 'Mi idioma', en: 'My language' },
            synonyms: ['idioma', 'language', 'lengua'],
          },
          {
            value: 'done',
            label: { es: 'Nada, está bien así', en: "Nothing, it's fine" },
            synonyms: ['nada', 'nothing', 'ninguno', 'none'],
          },
        ],
      },
      next: { firstname: 'firstname', lastname: 'lastname', language: 'language', done: 'bye' },
    },
    {
      id: 'firstname',
      objective: 'profile',
      title: { es: 'Nombre', en: 'First name' },
      say: [{ es: '¿Cuál es tu nombre?', en: 'What is your first name?' }],
      answer: { kind: 'text', min: 1, max: 80 },
      effects: [{ set: 'profile.firstname' }],
      confirm: { es: 'Hecho, {firstname}.', en: 'Done, {firstname}.' },
      next: 'card',
    },
    {
      id: 'lastname',
      objective: 'profile',
      title: { es: 'Apellidos', en: 'Last name' },
      say: [{ es: '¿Cuáles son tus apellidos?', en: 'What is your last name?' }],
      answer: { kind: 'text', min: 1, max: 80 },
      effects: [{ set: 'profile.lastname' }],
      confirm: { es: 'Apellidos guardados.', en: 'Last name saved.' },
      next: 'card',
    },
    {
      id: 'language',
      objective: 'profile',
      title: { es: 'Idioma', en: 'Language' },
      say: [{ es: '¿En qué idioma quieres usar Sparks?', en: 'Which language do you want to use Sparks in?' }],
      answer: { kind: 'language' },
      effects: [{ set: 'profile.language' }],
      confirm: { es: 'Idioma cambiado a español.', en: 'Language changed to English.' },
      next: 'card',
    },
    {
      id: 'bye',
      say: [
        {
          es: 'Perfecto. Vuelve cuando quieras cambiar algo.',
          en: 'Perfect. Come back whenever you want to change something.',
        },
      ],
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
      say: [{ es: 'Ajustes: ¿qué quieres hacer?', en: 'Settings: what would you like to do?' }],
      answer: {
        kind: 'choice',
        choices: [
          {
            value: 'language',
            label: { es: 'Cambiar el idioma', en: 'Change the language' },
            synonyms: ['idioma', 'language'],
          },
          { value: 'profile', label: { es: 'Editar mi perfil', en: 'Edit my profile' }, goto: '/profile' },
          {
            value: 'deactivate',
            label: { es: 'Desactivar mi cuenta', en: 'Deactivate my account' },
            synonyms: ['desactivar', 'deactivate', 'borrar cuenta', 'delete account', 'disable'],
          },
        ],
      },
      next: { language: 'language', deactivate: 'deactivate', '*': 'menu' },
    },
    {
      id: 'language',
      say: [{ es: '¿En qué idioma quieres usar Sparks?', en: 'Which language do you want to use Sparks in?' }],
      answer: { kind: 'language' },
      effects: [{ set: 'profile.language' }],
      confirm: { es: 'Idioma cambiado a español.', en: 'Language changed to English.' },
      next: 'menu',
    },
    {
      id: 'deactivate',
      say: [
        {
          es: '¿Seguro que quieres desactivar tu cuenta? Tus Sparks dejarán de responder y no podrás usar Sparks hasta que se reactive.',
          en: "Are you sure you want to deactivate your account? Your Sparks will stop answering and you won't be able to use Sparks until it is reactivated.",
        },
      ],
      answer: { kind: 'yesno' },
      effects: [{ do: 'deactivateAccount' }],
      next: { yes: 'deactivated', no: 'kept' },
    },
    {
      id: 'kept',
      say: [{ es: 'De acuerdo, tu cuenta sigue activa.', en: 'All right, your account stays active.' }],
      answer: { kind: 'none' },
      next: 'menu',
    },
    {
      id: 'deactivated',
      say: [{ es: 'Tu cuenta está desactivada.', en: 'Your account is deactivated.' }],
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
      say: [
        {
          es: 'Te damos la bienvenida a Sparks. Te ayudo a empezar en un minuto.',
          en: "Welcome to Sparks! I'll get you started in a minute.",
        },
      ],
      answer: { kind: 'none' },
      next: 'name',
    },
    {
      id: 'name',
      say: [{ es: '¿Cómo te llamas?', en: 'What is your name?' }],
      answer: { kind: 'text', min: 1, max: 80 },
      effects: [{ set: 'profile.firstname' }],
      next: 'language',
    },
    {
      id: 'language',
      say: [
        {
          es: 'Encantado, {firstname}. ¿En qué idioma prefieres usar Sparks?',
          en: 'Nice to meet you, {firstname}. Which language do you prefer for Sparks?',
        },
      ],
      answer: { kind: 'language' },
      effects: [{ set: 'profile.language' }],
      next: 'explain',
    },
    {
      id: 'explain',
      say: [{ es: 'Así funciona Sparks:', en: 'This is how Sparks works:' }],
      show: 'explainSparks',
      answer: { kind: 'none' },
      next: 'offer',
    },
    {
      id: 'offer',
      say: [{ es: '¿Creamos tu primer Spark?', en: 'Shall we create your first Spark?' }],
      answer: {
        kind: 'choice',
        widget: 'onboarding',
        choices: [
          { value: 'create', label: { es: 'Crear mi primer Spark', en: 'Create my first Spark' }, goto: '/new-spark' },
          { value: 'skip', label: { es: 'Ahora no', en: 'Not now' }, goto: '/' },
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
    { id: 'plan', title: { es: 'Conoce tu plan', en: 'Know your plan' } },
    { id: 'subscribe', title: { es: 'Empieza un plan', en: 'Start a plan' } },
    { id: 'credits', title: { es: 'Más interacciones', en: 'More interactions' } },
  ],
  start: 'overview',
  steps: [
    {
      id: 'overview',
      say: [
        {
          es: 'Esta es tu situación: tu plan, lo que llevas usado en este periodo y las interacciones compradas que te quedan.',
          en: 'Here is where you stand: your plan, what you have used this period and the purchased interactions you have left.',
        },
      ],
      show: 'usageCard',
      answer: { kind: 'none' },
      next: BILLING_STEPS.usage,
    },
    {
      // Passed through right after the card: seeing it completes the first objective.
      id: BILLING_STEPS.usage,
      objective: 'plan',
      title: { es: 'Mira tu plan y tu consumo', en: 'See your plan and usage' },
      say: [],
      answer: { kind: 'none' },
      next: 'plans',
    },
    {
      id: 'plans',
      say: [
        {
          es: 'Estos son los planes. Elige uno y lo pagas en la página de pago; si solo te faltan interacciones, compra un paquete (ITx): se gastan después de las de tu plan y no caducan.',
          en: 'These are the plans. Choose one and pay for it on the checkout page; if you only need more interactions, buy a pack (ITx): they are spent after your plan’s and do not expire.',
        },
      ],
      show: 'plansCard',
      answer: {
        kind: 'help',
        choices: [
          {
            value: 'plans',
            label: { es: 'Elegir un plan', en: 'Choose a plan' },
            synonyms: ['start a plan', 'empezar un plan', 'planes', 'plans', 'upgrade', 'mejorar mi plan'],
            goto: '/billing?showPlans=true',
          },
          {
            value: 'credits',
            label: { es: 'Comprar interacciones', en: 'Buy interactions' },
            synonyms: ['buy more interactions', 'comprar mas interacciones', 'credits', 'creditos'],
            goto: '/billing?showCredits=true',
          },
          {
            value: 'usage',
            label: { es: 'Ver mi consumo', en: 'See my usage' },
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
    doneElsewhere(BILLING_STEPS.choose, 'subscribe', { es: 'Elige un plan', en: 'Choose a plan' }),
    doneElsewhere(BILLING_STEPS.pay, 'subscribe', { es: 'Págalo en la página de pago', en: 'Pay for it at checkout' }),
    doneElsewhere(BILLING_STEPS.credits, 'credits', {
      es: 'Compra un paquete de interacciones',
      en: 'Buy an interaction pack',
    }),
  ],
};
