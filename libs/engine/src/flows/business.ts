/**
 * What an owner's free text says about the business ("We are Espiga, a bakery in Madrid, open Monday
 * to Saturday 8 to 20, friendly tone"): its name, a description, the tone and the opening hours. A
 * language model reads it when one is configured (llm.ts, JSON checked against `businessFactsSchema`);
 * without one, `readBusiness` applies the rules below, in English and Spanish.
 */

import { z } from 'zod';
import type { Lang } from './types';

export const TONES = ['friendly', 'professional', 'fun'] as const;
export type Tone = (typeof TONES)[number];

/** The model's answer: every field present, null when the text does not say it. */
export const businessFactsSchema = z
  .object({
    name: z.string().nullable().describe("The business's name as written, without articles such as 'we are'."),
    description: z
      .string()
      .nullable()
      .describe('What the business is and offers, one short phrase in the language of the text.'),
    tone: z.enum(TONES).nullable().describe('The tone the assistant should use, if the text says one.'),
    hours: z.string().nullable().describe('The opening hours as the text gives them, if it gives them.'),
  })
  .strict();

/**
 * The JSON schema sent as `response_format` (strict structured output): every field required, no
 * others, and no `$schema` keyword, which strict endpoints do not list among those they accept.
 */
export function businessJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(businessFactsSchema);
  return schema;
}

export interface BusinessFacts {
  name?: string;
  description?: string;
  tone?: Tone;
  hours?: string;
}

const LIMITS = { name: [2, 80], description: [5, 800], hours: [3, 300] } as const;

/** Keeps the fields that read as values: trimmed, within the lengths the builder accepts. */
export function cleanFacts(raw: Partial<Record<keyof BusinessFacts, string | null>>): BusinessFacts {
  const out: BusinessFacts = {};
  for (const key of ['name', 'description', 'hours'] as const) {
    const value = raw[key]
      ?.replace(/\s+/g, ' ')
      .trim()
      .replace(/[.,;:]+$/, '');
    if (value && value.length >= LIMITS[key][0] && value.length <= LIMITS[key][1]) out[key] = value;
  }
  if (raw.tone && (TONES as readonly string[]).includes(raw.tone)) out.tone = raw.tone as Tone;
  return out;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

const DAYS =
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays|weekends|mon|tue|wed|thu|fri|sat|sun|lunes|martes|miercoles|jueves|viernes|sabado|sabados|domingo|domingos|fines de semana|entre semana|todos los dias|every day|daily';
const HOURS_CLAUSE = new RegExp(
  `\\b(open|opening hours|hours|we open|abrimos|abierto|abiertos|abierta|horario|de (${DAYS}))\\b|\\b(${DAYS})\\b.*\\d|\\d{1,2}(:\\d{2})?\\s*(am|pm|h)\\b`,
);
const TONE_WORDS: Array<[RegExp, Tone]> = [
  [/\b(friendly|warm|close|cercano|cercana|amable|amigable|calido|calida|cordial)\b/, 'friendly'],
  [/\b(professional|formal|serious|profesional|serio|seria|formales)\b/, 'professional'],
  [/\b(fun|funny|playful|casual|informal|divertido|divertida|desenfadado|desenfadada|alegre)\b/, 'fun'],
];
const TONE_CLAUSE = /\b(tone|tono|tono de voz|voice|trato|style|estilo)\b/;

/** The tone a clause asks for ("friendly tone", "con un tono cercano", "trato profesional"). */
function toneOf(clause: string): Tone | undefined {
  const c = fold(clause);
  for (const [re, tone] of TONE_WORDS) if (re.test(c)) return tone;
  return undefined;
}

/** Phrases that introduce the name, with the name right after them. */
const NAME_BEFORE = [
  /\b(?:we are|we're|we re|this is|welcome to|i run|we run|i own|i have|we have)\s+(?:called\s+)?/i,
  /\b(?:(?:my|our) (?:business|company|shop|store|restaurant|bakery|brand|firm|studio|clinic|cafe|café|bar|hotel|agency|school|gym|salon|name) (?:is called|is named|is|name is)|(?:it|we|she|he)(?:'s| is| are)? called|(?:it|we)(?:'s| is| are) named|called|named)\s+/i,
  /\b(?:somos|esto es|bienvenidos a|bienvenidas a|tengo|tenemos|llevo|llevamos|regento|dirijo)\s+/i,
  /\b(?:(?:mi|nuestro|nuestra|el|la) (?:negocio|empresa|tienda|restaurante|panaderia|panadería|marca|estudio|clinica|clínica|cafeteria|cafetería|bar|hotel|agencia|academia|escuela|gimnasio|peluqueria|peluquería|nombre) (?:se llama|es)|se llama|nos llamamos|me llamo|llamado|llamada|que se llama)\s+/i,
];
/** A phrase that starts a description (an indefinite article or "we sell…"). */
const DESCRIBES =
  /^(?:(?:we are |we're |somos |es |is |are )?(?:an?|un|una|unos|unas)\s|(?:we |nosotros )?(?:sell|make|offer|bake|run|provide|help|vendemos|hacemos|ofrecemos|horneamos|ayudamos|damos|preparamos|fabricamos)\b)/i;
/** Words that end a name that runs on ("Espiga and we bake…", "Espiga que hace…"). */
const NAME_END =
  /\s+(?:and|y|e|que|which|who|where|donde|in|en|from|de|del|since|desde|with|con|is|es|are|son|a|an|un|una|we|nosotros|for|para)\s.*$/i;

/** First words of a sentence that are not a name ("How much is a…", "It is a…", "We are a…"). */
const NOT_NAMES = new Set(
  'how what where when why who which whose it its this that these those there here we i you our my your he she they his her their is are do does can could would should please hi hello cuanto cuanta cuantos cuantas que como donde cuando quien cual esto eso esta este ese esa aqui hay es son mi mis nuestro nuestra tu su nosotros yo ella ellos hola puedo podemos quiero queremos'.split(
    ' ',
  ),
);

function cleanName(raw: string): string | undefined {
  let name = raw
    .replace(NAME_END, '')
    .replace(/^[«“"'‘]+|[»”"'’]+$/g, '')
    .trim()
    .replace(/[.!?;:]+$/, '');
  name = name.replace(/^(?:the|el|la|los|las)\s+(?=\p{Ll})/u, '');
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 6 || name.length < 2) return undefined;
  // A name is capitalised somewhere, or written in quotes; "a bakery" is not a name.
  if (!/\p{Lu}|\d/u.test(name) && !/^[«“"']/.test(raw.trim())) return undefined;
  if (DESCRIBES.test(`${name} `) || NOT_NAMES.has(fold(words[0]))) return undefined;
  return name;
}

const capitalise = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** "a bakery in Madrid" → "A bakery in Madrid"; "we sell bread" as said. */
function cleanDescription(raw: string): string | undefined {
  const d = raw
    .replace(/^(?:we are|we're|somos|es|is|are)\s+/i, '')
    .trim()
    .replace(/[.,;:!]+$/, '');
  return d.length >= 5 ? capitalise(d) : undefined;
}

/**
 * Reads the business's name, a description, the tone and the opening hours from one free sentence,
 * without a language model. It reads clause by clause (commas, full stops, "and"): the clause that
 * holds days or hours is the opening hours, the one that names a tone is the tone, a phrase that
 * introduces the name ("we are", "somos", "se llama", "called") gives the name, and the clause that
 * describes (after the name, or starting with "a …", "una …", "we sell…") is the description.
 */
export function readBusiness(text: string, _language?: Lang): BusinessFacts {
  const facts: Partial<Record<keyof BusinessFacts, string>> = {};
  // Clauses, each with its sentence and position, so that a description may go on over commas only.
  const clauses = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .flatMap((sentence, s) =>
      sentence
        .split(/\s*(?:[,;:!]\s+|;|\s+[-–]\s+|,(?=\S)|\.$)\s*/)
        .map((c) => c.trim().replace(/\.$/, ''))
        .filter(Boolean)
        .map((c, i) => ({ text: c, at: s * 1000 + i })),
    );
  const rest: string[] = [];
  const position: number[] = [];
  let hoursParts: string[] = [];
  for (const { text: clause, at } of clauses) {
    // A question is asked, not told.
    if (/\?\s*$/.test(clause) || /^¿/.test(clause)) continue;
    const folded = fold(clause);
    const tone = toneOf(clause);
    if (tone && (TONE_CLAUSE.test(folded) || folded.split(' ').length <= 3) && !HOURS_CLAUSE.test(folded)) {
      facts.tone ??= tone;
      continue;
    }
    if (HOURS_CLAUSE.test(folded) && /\d|\b(24|todo el dia|all day)\b/.test(folded)) {
      hoursParts.push(capitalise(clause.replace(/^(?:and|y)\s+/i, '')));
      continue;
    }
    if (hoursParts.length) {
      facts.hours ??= hoursParts.join(', ');
      hoursParts = [];
    }
    rest.push(clause);
    position.push(at);
  }
  if (hoursParts.length) facts.hours ??= hoursParts.join(', ');

  // The name: after a phrase that introduces it, in the first clause that has one.
  let nameAt = -1;
  for (const [i, clause] of rest.entries()) {
    for (const re of NAME_BEFORE) {
      const m = re.exec(clause);
      if (!m) continue;
      const after = clause.slice(m.index + m[0].length);
      // "We are a bakery in Madrid called Espiga": the description comes first.
      const name = cleanName(after);
      if (name) {
        facts.name = name;
        nameAt = i;
        const before = clause.slice(0, m.index).trim();
        const tail = after.slice(after.indexOf(name) + name.length).trim();
        if (before && DESCRIBES.test(`${before.replace(/^(?:hi|hello|hola|buenas)\s+/i, '')} `))
          facts.description ??= cleanDescription(before.replace(/^(?:hi|hello|hola|buenas)\s+/i, ''));
        else if (tail && DESCRIBES.test(`${tail.replace(/^(?:and|y)\s+/i, '')} `))
          facts.description ??= cleanDescription(tail.replace(/^(?:and|y)\s+/i, ''));
        break;
      }
    }
    if (facts.name) break;
  }
  // "Espiga is a bakery in Madrid" / "Espiga es una panadería": a capitalised subject, then a description.
  if (!facts.name) {
    for (const [i, clause] of rest.entries()) {
      const m = /^(.{2,60}?)\s+(?:is|are|es|son)\s+((?:an?|un|una|unos|unas)\s.+)$/i.exec(clause);
      const name = m && cleanName(m[1]);
      if (m && name) {
        facts.name = name;
        facts.description ??= cleanDescription(m[2]);
        nameAt = i;
        break;
      }
    }
  }
  // "Espiga, a bakery in Madrid" / "Panadería Espiga: pan de masa madre": a short name, then the description.
  if (!facts.name && rest.length >= 2) {
    const name = cleanName(rest[0]);
    if (name && rest[0].split(/\s+/).length <= 4 && DESCRIBES.test(`${rest[1]} `)) {
      facts.name = name;
      nameAt = 0;
    }
  }
  // The description: the clause after the name that describes, and the clauses that go on with it.
  if (!facts.description) {
    const from = nameAt + 1;
    const start = rest.findIndex((c, i) => i >= from && DESCRIBES.test(`${c} `));
    const at = start >= 0 ? start : nameAt >= 0 && rest[from] ? from : -1;
    if (at >= 0) {
      // The clauses right after it in the same sentence go on with it ("a bakery, cakes and coffee").
      let end = at + 1;
      while (
        end < rest.length &&
        position[end] === position[end - 1] + 1 &&
        !NAME_BEFORE.some((re) => re.test(rest[end]))
      )
        end += 1;
      facts.description = cleanDescription(rest.slice(at, end).join(', '));
    }
  }
  return cleanFacts(facts);
}
