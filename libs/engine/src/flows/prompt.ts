/** The Spark's instructions (system prompt), written from what the owner told the builder. */

import { label, msg, type FlowTextKey } from './texts';
import type { SparkInfo } from './ports';

/** The tone's words in the Spark's instructions and in what the builder understood. */
export const TONE_TEXT: Record<string, FlowTextKey> = {
  friendly: 'toneFriendly',
  professional: 'toneProfessional',
  fun: 'toneFun',
};
const PURPOSES: Record<string, FlowTextKey> = {
  questions: 'purposeQuestions',
  sell: 'purposeSell',
  bookings: 'purposeBookings',
  support: 'purposeSupport',
};

/** In the Spark's language; the values go in as the owner typed them (the prompt is not markdown). */
export function buildPrompt(s: SparkInfo): string {
  const lang = s.language;
  const tone = label(lang, msg(TONE_TEXT[s.tone ?? 'friendly'] ?? TONE_TEXT.friendly));
  const purposeKey = s.purpose ? PURPOSES[s.purpose] : undefined;
  const purpose = purposeKey ? label(lang, msg(purposeKey)) : (s.purpose ?? '');
  return [
    label(lang, msg('promptIntro'), { name: s.name, business: s.business || s.name }),
    s.description ? label(lang, msg('promptBusiness'), { description: s.description }) : '',
    purpose ? label(lang, msg('promptGoal'), { purpose }) : '',
    s.hours ? label(lang, msg('promptHours'), { hours: s.hours }) : '',
    label(lang, msg('promptRules'), { tone }),
  ]
    .filter(Boolean)
    .join(' ');
}
