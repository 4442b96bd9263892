import type { Flow } from '../types';

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
          es: '¿Seguro que quieres desactivar tu cuenta? Tus Sparks dejarán de responder y no podrás usar Sparks hasta que la reactives.',
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

const soon = (name: 'billing' | 'deploy'): Flow => ({
  name,
  start: 'soon',
  steps: [
    {
      id: 'soon',
      say: [
        name === 'billing'
          ? {
              es: 'Aquí podrás elegir tu plan (Ruby, 45 €/mes con 600 interacciones; Emerald, 90 €/mes con 1500) y comprar interacciones extra. Los pagos llegan muy pronto; mientras tanto, tu prueba gratuita de 15 días te deja crear y probar tus Sparks.',
              en: 'Here you will choose your plan (Ruby, €45/month with 600 interactions; Emerald, €90/month with 1,500) and buy extra interactions. Payments are coming very soon; meanwhile, your 15-day free trial lets you create and test your Sparks.',
            }
          : {
              es: 'Aquí publicarás tus Sparks en tu web con un widget de chat o un Pulse para tu gestor de contenidos. La publicación llega muy pronto; mientras tanto, puedes crear y probar tus Sparks.',
              en: 'Here you will publish your Sparks on your website as a chat widget, or a Pulse for your content-management system. Publishing is coming very soon; meanwhile, you can create and test your Sparks.',
            },
      ],
      answer: { kind: 'help', choices: [] },
      next: 'soon',
    },
  ],
});

export const billingFlow = soon('billing');
