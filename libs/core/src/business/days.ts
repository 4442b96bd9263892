/**
 * Days of the week as business documents write them, in English and Spanish: names, plurals and
 * abbreviations ("Mon", "Tue-Wed", "Lunes a viernes", "Sáb."), ranges and lists, and the words that
 * stand for several days ("weekdays", "entre semana", "fines de semana") or for public holidays. Days are
 * numbered as `Date.getDay()`: 0 Sunday … 6 Saturday. Shared by the ingestion (hours rows) and by the
 * answer engine (the day a question asks about).
 */

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Each day's words, folded: full names (singular and plural) and abbreviations. */
const DAY_WORDS: Array<[number, string[]]> = [
  [1, ['monday', 'mondays', 'mon', 'lunes', 'lun']],
  [2, ['tuesday', 'tuesdays', 'tue', 'tues', 'martes', 'mar']],
  [3, ['wednesday', 'wednesdays', 'wed', 'miercoles', 'mie', 'mier', 'mx']],
  [4, ['thursday', 'thursdays', 'thu', 'thur', 'thurs', 'jueves', 'jue']],
  [5, ['friday', 'fridays', 'fri', 'viernes', 'vie']],
  [6, ['saturday', 'saturdays', 'sat', 'sabado', 'sabados', 'sab']],
  [0, ['sunday', 'sundays', 'sun', 'domingo', 'domingos', 'dom']],
];

const WORD_DAY = new Map<string, number>(
  DAY_WORDS.flatMap(([d, words]) => words.map((w) => [w, d] as [string, number])),
);

/** Words that name several days at once, folded (multi-word ones written with single spaces). */
const GROUPS: Array<[RegExp, number[]]> = [
  [
    /\b(weekdays?|workdays?|working days|business days|entre semana|entresemana|laborables|dias laborables|de lunes a viernes)\b/,
    [1, 2, 3, 4, 5],
  ],
  [/\b(weekends?|fines? de semana|finde|findes)\b/, [6, 0]],
  [
    /\b(daily|every day|everyday|7 days( a week)?|all week|todos los dias|diario|a diario|toda la semana)\b/,
    [0, 1, 2, 3, 4, 5, 6],
  ],
];

/** Public holidays, as a row's label or a question names them. */
export const HOLIDAY = /\b(bank holidays?|public holidays?|holidays?|festivos?|dias festivos|feriados?)\b/;

/** A day word of `DAY_WORDS`, as a whole word; abbreviations may carry a period ("Sáb."). */
const DAY_TOKEN = new RegExp(`\\b(${[...WORD_DAY.keys()].sort((a, b) => b.length - a.length).join('|')})\\b\\.?`, 'g');

/** Words that join the two ends of a range of days. */
const RANGE = /^\s*(?:-|–|—|to|through|thru|till|until|a|al|hasta)\s*$/;

/** The days from `a` to `b`, going round the week (Friday to Monday: 5, 6, 0, 1). */
function span(a: number, b: number): number[] {
  const out = [a];
  for (let d = a; d !== b;) {
    d = (d + 1) % 7;
    out.push(d);
  }
  return out;
}

export interface DaySet {
  days: number[];
  /** The text names public holidays. */
  holiday: boolean;
}

/**
 * The days a text names ("Mon-Fri", "Tuesday to Saturday", "lunes, miércoles y viernes", "weekends",
 * "Domingos y festivos"), in order, without repeats. Words that are only sometimes days ("mar", "sun",
 * "sat", "dom", "mon") count only beside another day word or in a short label (`strict` false).
 */
export function daysIn(text: string, strict = false): DaySet {
  const f = fold(text);
  const days: number[] = [];
  const add = (d: number[]) => {
    for (const x of d) if (!days.includes(x)) days.push(x);
  };
  for (const [re, group] of GROUPS) if (re.test(f)) add(group);
  const tokens = [...f.matchAll(DAY_TOKEN)].map((m) => ({
    day: WORD_DAY.get(m[1])!,
    word: m[1],
    start: m.index,
    end: m.index + m[0].length,
  }));
  const ambiguous = new Set(['mar', 'sun', 'sat', 'dom', 'mon', 'mie', 'jue', 'vie', 'lun', 'wed', 'mx', 'sab']);
  const usable = tokens.filter(
    (t) => !strict || !ambiguous.has(t.word) || tokens.length > 1 || f.trim().length <= t.word.length + 2,
  );
  for (let i = 0; i < usable.length; i++) {
    const t = usable[i];
    const next = usable[i + 1];
    if (next && RANGE.test(f.slice(t.end, next.start))) {
      add(span(t.day, next.day));
      i++;
    } else add([t.day]);
  }
  return { days, holiday: HOLIDAY.test(f) };
}
