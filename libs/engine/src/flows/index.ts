import { billingFlow, onboardingFlow, profileFlow, settingsFlow } from './definitions/account';
import { deployFlow } from './definitions/deploy';
import { builderFlow } from './definitions/builder';
import { mainFlow } from './definitions/main';
import { newSparkFlow } from './definitions/new-spark';
import type { Flow } from './types';

export { firstSeenMessage } from './definitions/deploy';
export * from './business';
export * from './engine';
export * from './ports';
export * from './sharing';
export * from './state';
export * from './status';
export * from './theme';
export * from './types';
export * from './understand';
export { classifyReply, FIELD_CHOICES, type Ask, type Field, type ModelReading, type Reading } from './understanding';

/** Every assistant the product has: the system assistants by name, and the Spark builder. */
export const FLOWS: Flow[] = [
  mainFlow,
  newSparkFlow,
  builderFlow,
  profileFlow,
  settingsFlow,
  onboardingFlow,
  billingFlow,
  deployFlow,
];
export * from './objectives';
