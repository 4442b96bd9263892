/**
 * Answers reasoned from a Spark's business facts (issue 29 item 3): the opening hours of the day asked
 * ("What time do you close on Monday?" against "Monday to Friday: 7:30 to 20:30" → "On Mondays we close at
 * 20:30"), a closed day, the midday break; the address, the phone, the e-mail; whether a payment method is
 * accepted. Each answer leads with what the customer asked, in the question's language, and quotes the
 * document's line it comes from, whole.
 */
import { type ContactFact, type HoursFact, type PaymentFact, t } from '@sparks/core';
import { isSubject, type Match } from './match';
import type { Unit } from './units';
import { fold, type Lang } from './words';

/** What a facts answer says: its lead in the question's language and the units it quotes. */
export interface FactAnswer {
  lead?: string;
  units: Unit[];
}

const HOURS_INTENTS = ['hours', 'open', 'close', 'time'] as const;

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** "on Mondays", "los sábados", "entre semana": the days the question asked about. */
function whenText(lang: Lang, days: number[], question: Match['question']): string {
  const f = fold(question.text);
  if (/\b(weekdays?|workdays?|entre ?semana|laborables)\b/.test(f)) return t(lang, 'engine.onWeekdays');
  if (/\b(weekends?|fin(es)? de semana|findes?)\b/.test(f)) return t(lang, 'engine.atWeekends');
  if (days.length === 0) return question.days.holiday ? t(lang, 'engine.onHolidays') : '';
  const names = t(lang, 'engine.dayNames').split(',');
  return t(lang, 'engine.onDay', { day: days.map((d) => names[d]).join(t(lang, 'engine.dayJoin')) });
}

const hoursOf = (u: Unit) => u.facts.find((f): f is HoursFact => f.kind === 'hours');

/** The interval of a row the part of the day asks about (afternoon: the one that starts after noon). */
function intervalFor(f: HoursFact, part: Match['question']['part']) {
  if (part === 'afternoon') return f.intervals.find((i) => i[0].minutes >= 12 * 60) ?? f.intervals.at(-1);
  if (part === 'morning') return f.intervals[0];
  return undefined;
}

/**
 * The hours of the days a question asks about, from the Spark's hours rows. Undefined when the question
 * is about something the rows do not speak of ("Do you deliver on Saturday?") or names no day.
 */
export function hoursAnswer(match: Match): FactAnswer | undefined {
  const q = match.question;
  if (!HOURS_INTENTS.some((i) => q.intents.has(i))) return undefined;
  const rows = match.knowledge.units.filter((u) => hoursOf(u));
  if (rows.length === 0) return undefined;
  const lang = q.lang;
  // Subjects other than days: the rows must hold them ("Is the workshop open on Sunday?").
  const subjects = q.terms.map((term, i) => ({ term, i })).filter(({ term }) => isSubject(term));
  const heldBy = (u: Unit) => subjects.every(({ i }) => match.weights[i][u.id] > 0 || match.headings[i][u.id] > 0);
  const weekly = rows.filter((u) => hoursOf(u)!.days.length > 0);
  // Every row of the week and the public holidays (not the dated exceptions): the opening hours as a whole.
  const usual = rows.filter((u) => hoursOf(u)!.days.length > 0 || hoursOf(u)!.holiday);
  if (q.days.days.length === 0) {
    if (q.days.holiday) {
      const holiday = rows.filter((u) => hoursOf(u)!.holiday && heldBy(u));
      return holiday.length ? { lead: undefined, units: holiday.slice(0, 2) } : undefined;
    }
    // "What are your opening hours?": every row of the week.
    if (subjects.length === 0 && !q.part && weekly.length > 0) {
      if (q.intents.has('time') && !q.intents.has('hours')) return undefined;
      return { lead: t(lang, 'engine.hoursAll'), units: usual };
    }
    if (subjects.length > 0 || weekly.length === 0) return undefined;
    // "¿A qué hora abrís por la tarde?", "¿Cerráis a mediodía?": the weekday rows.
    const split = weekly.filter((u) => hoursOf(u)!.intervals.length > 1);
    const row = (q.part === 'midday' || q.part === 'afternoon' ? split[0] : undefined) ?? weekly[0];
    // No day was asked: the lead names none ("Por la tarde abrimos a las 17:00"), the row quoted says which.
    return answerForRow(match, row, [], lang);
  }
  const asked = q.days.days;
  const all = weekly.filter((u) => hoursOf(u)!.days.some((d) => asked.includes(d)));
  // A row for holidays too ("Bank holiday Mondays: closed") only when no plain row covers the day.
  const plain = all.filter((u) => !hoursOf(u)!.holiday);
  const covering = plain.length > 0 ? plain : all;
  if (covering.length === 0) {
    // No row for that day: every row, so that the customer sees what the document says.
    return weekly.length && subjects.length === 0 ? { lead: t(lang, 'engine.hoursAll'), units: usual } : undefined;
  }
  if (subjects.length > 0) {
    const held = covering.filter(heldBy);
    return held.length ? { units: held } : undefined;
  }
  const full = covering.filter((u) => asked.every((d) => hoursOf(u)!.days.includes(d)));
  if (full.length === 1 && covering.length === 1) return answerForRow(match, full[0], asked, lang);
  return { lead: capitalize(t(lang, 'engine.hoursWhen', { when: whenText(lang, asked, q) })), units: covering };
}

/** A lead whose day part was left empty ("Sí,  cerramos…") put back together. */
const tidy = (a: FactAnswer): FactAnswer =>
  a.lead
    ? {
        ...a,
        lead: capitalize(
          a.lead
            .replace(/\s{2,}/g, ' ')
            .replace(/\s+([,.])/g, '$1')
            .trim(),
        ),
      }
    : a;

function answerForRow(match: Match, row: Unit, days: number[], lang: Lang): FactAnswer {
  return tidy(leadForRow(match, row, days, lang));
}

function leadForRow(match: Match, row: Unit, days: number[], lang: Lang): FactAnswer {
  const q = match.question;
  const f = hoursOf(row)!;
  const when = whenText(lang, days, q);
  const first = f.intervals[0];
  const last = f.intervals.at(-1);
  if (f.closed) return { lead: t(lang, 'engine.hoursClosed', { when }), units: [row] };
  if (q.part === 'midday') {
    const lead =
      f.intervals.length > 1
        ? t(lang, 'engine.hoursBreak', { when, from: f.intervals[0][1].text, to: f.intervals[1][0].text })
        : t(lang, 'engine.hoursNoBreak', { when });
    return { lead, units: [row] };
  }
  const part = intervalFor(f, q.part);
  const whenPart =
    q.part === 'afternoon'
      ? t(lang, 'engine.inTheAfternoon')
      : q.part === 'morning'
        ? t(lang, 'engine.inTheMorning')
        : '';
  const whenAll = [when, whenPart].filter(Boolean).join(' ');
  const asksTime = q.intents.has('time') || q.intents.has('hours');
  if (q.intents.has('close') && !q.intents.has('open') && last) {
    const time = (part ?? last)[1].text;
    return { lead: capitalize(t(lang, 'engine.hoursCloseAt', { when: whenAll, time })), units: [row] };
  }
  if (q.intents.has('open') && asksTime && first) {
    const time = (part ?? first)[0].text;
    return { lead: capitalize(t(lang, 'engine.hoursOpenAt', { when: whenAll, time })), units: [row] };
  }
  if (q.intents.has('open')) return { lead: t(lang, 'engine.hoursOpen', { when: whenAll }), units: [row] };
  return { lead: capitalize(t(lang, 'engine.hoursWhen', { when: whenAll })), units: [row] };
}

const contactOf = (u: Unit, type: ContactFact['type']) =>
  u.facts.filter((f): f is ContactFact => f.kind === 'contact' && f.type === type);

/**
 * The address, phone, WhatsApp, e-mail or website, when that is all the question asks ("¿Dónde está la
 * tienda?", "What's your phone number?"). Undefined when it names something else to find.
 */
export function contactAnswer(match: Match): FactAnswer | undefined {
  const q = match.question;
  if (q.terms.some(isSubject)) return undefined;
  const lang = q.lang;
  const units = match.knowledge.units;
  const order: Array<[Parameters<typeof contactOf>[1], 'where' | 'whatsapp' | 'phone' | 'email' | 'web']> = [
    ['address', 'where'],
    ['whatsapp', 'whatsapp'],
    ['phone', 'phone'],
    ['email', 'email'],
    ['web', 'web'],
  ];
  for (const [type, intent] of order) {
    if (!q.intents.has(intent)) continue;
    const found = units.flatMap((u) => contactOf(u, type).map((fact) => ({ u, fact })));
    if (type === 'phone' && found.length === 0) continue;
    if (found.length === 0) return undefined;
    const distinct = found.filter((x, i) => found.findIndex((y) => y.fact.value === x.fact.value) === i);
    if (type === 'phone' && distinct.length > 1 && distinct.some((x) => x.fact.label)) {
      const list = distinct
        .slice(0, 3)
        .map((x) => (x.fact.label ? `${x.fact.label}: ${x.fact.value}` : x.fact.value))
        .join('; ');
      return { lead: `${t(lang, 'engine.phones')}: ${list}`, units: [distinct[0].u] };
    }
    const { u, fact } = distinct[0];
    return { lead: t(lang, `engine.${type}`, { value: fact.value }), units: [u] };
  }
  return undefined;
}

/**
 * Whether a payment method is taken ("Can I pay with Apple Pay?" → "Yes, we accept Apple Pay"), from the
 * lines that name the ways to pay; a method they do not name gets the list.
 */
export function paymentAnswer(match: Match): FactAnswer | undefined {
  const q = match.question;
  if (!q.intents.has('payment')) return undefined;
  const lang = q.lang;
  const lines = match.knowledge.units
    .map((u) => ({ u, fact: u.facts.find((f): f is PaymentFact => f.kind === 'payment') }))
    .filter((x): x is { u: Unit; fact: PaymentFact } => x.fact !== undefined);
  if (lines.length === 0) return undefined;
  const list = (): FactAnswer => ({
    lead: t(lang, 'engine.payList'),
    units: lines
      .filter((l) => !l.fact.refused)
      .map((l) => l.u)
      .slice(0, 2),
  });
  // What the question names that the payment lines speak of (a method, "Cycle to Work vouchers").
  const asked = q.terms
    .map((term, i) => ({ term, i }))
    .filter(({ term, i }) => isSubject(term) && lines.some(({ u }) => match.weights[i][u.id] > 0));
  const others = q.terms.filter((term, i) => isSubject(term) && !asked.some((a) => a.i === i));
  // A subject the payment lines never mention and the documents do elsewhere: not a payment question.
  if (others.some((term) => !match.missing.includes(q.terms.indexOf(term))) && asked.length === 0) return undefined;
  if (asked.length === 0) return list();
  // The lines that hold every method asked about, best first; a refusal says no.
  const holding = lines.filter(({ u }) => asked.every(({ i }) => match.weights[i][u.id] > 0));
  const method = asked.map(({ term }) => term.text).join(' ');
  const accepted = holding.find((l) => !l.fact.refused);
  if (accepted) return { lead: t(lang, 'engine.payYes', { method }), units: [accepted.u] };
  if (holding.length > 0) return { lead: t(lang, 'engine.payNo', { method }), units: [holding[0].u] };
  return list();
}
