import { msg, say } from '../texts';
import type { Flow, Lang, Step } from '../types';

/** A step of the deploy objectives: done in the deploy page's panel, which marks it (PATCH /objectives/deploy). */
const panelStep = (id: string, objective: string, title: Step['title'] & object, say: Step['say'][number]): Step => ({
  id,
  objective,
  title,
  say: [say],
  answer: { kind: 'none' },
  next: null,
});

/**
 * The deploy assistant (/deploy): it explains the way to publish and answers questions; the work is
 * done in the panel above the chat, and its steps are the deploy objectives.
 */
export const deployFlow: Flow = {
  name: 'deploy',
  objectivesKey: 'deploy',
  objectives: [
    { id: 'choose', title: { es: 'Elige qué y dónde', en: 'Choose what and where' } },
    { id: 'sites', title: { es: 'Tus sitios y el aspecto', en: 'Your sites and the look' } },
    { id: 'publish', title: { es: 'Publica y comprueba', en: 'Publish and check' } },
  ],
  start: 'welcome',
  intents: [
    {
      phrases: ['unpublish', 'despublicar', 'despublica', 'despublicalo', 'quitar el widget', 'retirar el widget'],
      action: 'unpublish',
    },
    {
      phrases: [
        'new code',
        'replace the code',
        'rotate the token',
        'rotate token',
        'new token',
        'sustituir el codigo',
        'cambiar el codigo',
        'nuevo codigo',
        'codigo nuevo',
        'rotar el token',
      ],
      action: 'rotateToken',
    },
  ],
  steps: [
    {
      id: 'welcome',
      say: [
        {
          es: 'Vamos a publicar tu Spark. En el panel tienes los pasos: 1) elige el Spark y dónde (un widget para tu web o el Pulse para WordPress); 2) añade las direcciones de los sitios que pueden mostrarlo y mira la vista previa en vivo; 3) publica, copia el código en tu web y te diré cuándo se vea por primera vez. Desde aquí también puedes despublicarlo o sustituir el código.',
          en: "Let's publish your Spark. The steps are in the panel: 1) choose the Spark and where (a widget for your website or the Pulse for WordPress); 2) add the addresses of the sites allowed to show it and look at the live preview; 3) publish, copy the code into your website and I'll tell you when it is first seen there. You can also unpublish it or replace the code from here.",
        },
      ],
      // Unpublishing and a new code are asked for here (the buttons, or in words), and always confirmed.
      answer: {
        kind: 'help',
        choices: [
          {
            value: 'unpublish',
            label: { es: 'Despublicar un Spark', en: 'Unpublish a Spark' },
            when: 'hasDeployments',
          },
          {
            value: 'new code',
            label: { es: 'Sustituir el código', en: 'Replace the code' },
            when: 'hasDeployments',
          },
        ],
      },
      next: 'welcome',
    },
    panelStep(
      'deploy.spark',
      'choose',
      { es: 'Elige el Spark', en: 'Choose the Spark' },
      { es: 'Elige el Spark que quieres publicar.', en: 'Choose the Spark you want to publish.' },
    ),
    panelStep(
      'deploy.channel',
      'choose',
      { es: 'Elige dónde publicarlo', en: 'Choose where to publish it' },
      { es: 'Widget para tu web o Pulse para WordPress.', en: 'A website widget or the Pulse for WordPress.' },
    ),
    panelStep(
      'deploy.sites',
      'sites',
      { es: 'Añade tus sitios web', en: 'Add your websites' },
      { es: 'Solo los sitios de la lista pueden mostrarlo.', en: 'Only the listed sites can show it.' },
    ),
    panelStep(
      'deploy.preview',
      'sites',
      { es: 'Mira la vista previa', en: 'Look at the preview' },
      { es: 'El widget real, con tus colores y tu saludo.', en: 'The real widget, with your colours and greeting.' },
    ),
    panelStep(
      'deploy.publish',
      'publish',
      { es: 'Publica y copia el código', en: 'Publish and copy the code' },
      { es: 'Pega el código en tu web.', en: 'Paste the code into your website.' },
    ),
    panelStep(
      'deploy.verify',
      'publish',
      { es: 'Comprueba que se ve en tu web', en: 'Check that it shows on your site' },
      { es: 'Te aviso cuando se vea por primera vez.', en: 'I tell you when it is first seen.' },
    ),
  ],
};

/**
 * What the deploy assistant tells its owner when a published Spark's widget is first seen on one of the
 * allowed sites (the api posts it in the owner's deploy conversation; the message's own time says when).
 */
export const firstSeenMessage = (lang: Lang, name: string, origin: string): string =>
  say(lang, msg('deployFirstSeen'), { name, origin });
