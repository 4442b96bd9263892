import { texts } from '@sparks/core';
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
    { id: 'choose', title: texts('assistants.deploy.objectives.choose.title') },
    { id: 'sites', title: texts('assistants.deploy.objectives.sites.title') },
    { id: 'publish', title: texts('assistants.deploy.objectives.publish.title') },
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
      say: [texts('assistants.deploy.welcome.say.0')],
      // Unpublishing and a new code are asked for here (the buttons, or in words), and always confirmed.
      answer: {
        kind: 'help',
        choices: [
          {
            value: 'unpublish',
            label: texts('assistants.deploy.welcome.unpublish.label'),
            when: 'hasDeployments',
          },
          {
            value: 'new code',
            label: texts('assistants.deploy.welcome.newCode.label'),
            when: 'hasDeployments',
          },
        ],
      },
      next: 'welcome',
    },
    panelStep(
      'deploy.spark',
      'choose',
      texts('assistants.deploy.deploySpark.title'),
      texts('assistants.deploy.deploySpark.say'),
    ),
    panelStep(
      'deploy.channel',
      'choose',
      texts('assistants.deploy.deployChannel.title'),
      texts('assistants.deploy.deployChannel.say'),
    ),
    panelStep(
      'deploy.sites',
      'sites',
      texts('assistants.deploy.deploySites.title'),
      texts('assistants.deploy.deploySites.say'),
    ),
    panelStep(
      'deploy.preview',
      'sites',
      texts('assistants.deploy.deployPreview.title'),
      texts('assistants.deploy.deployPreview.say'),
    ),
    panelStep(
      'deploy.publish',
      'publish',
      texts('assistants.deploy.deployPublish.title'),
      texts('assistants.deploy.deployPublish.say'),
    ),
    panelStep(
      'deploy.verify',
      'publish',
      texts('assistants.deploy.deployVerify.title'),
      texts('assistants.deploy.deployVerify.say'),
    ),
  ],
};

/**
 * What the deploy assistant tells its owner when a published Spark's widget is first seen on one of the
 * allowed sites (the api posts it in the owner's deploy conversation; the message's own time says when).
 */
export const firstSeenMessage = (lang: Lang, name: string, origin: string): string =>
  say(lang, msg('deployFirstSeen'), { name, origin });
