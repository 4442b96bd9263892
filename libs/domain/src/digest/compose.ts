import { interpolate, t, type Language, type TextKey } from '@sparks/core';

/**
 * The weekly digest e-mail (issue 35 item 4), composed from a week's figures in the owner's language: the subject with
 * the week's conversations, the dates, the totals (conversations, answers and the share answered from the documents,
 * not covered, ratings), a line per Spark that had activity, the three questions asked most, what to fix, and links to
 * the analytics and to the profile (where the e-mail is turned off). Plain text and HTML; in the HTML, everything that
 * is not ours (Spark names, visitors' questions) is escaped.
 */

/** A week's figures (`AnalyticsRepository.period` of the week, all the owner's Sparks). */
export interface DigestCounts {
  conversations: number;
  questions: number;
  answers: number;
  notCovered: number;
  ratedUp: number;
  ratedDown: number;
}
export interface DigestFigures {
  /** First and last day, `YYYY-MM-DD`, in the owner's time zone. */
  from: string;
  to: string;
  totals: DigestCounts;
  sparks: ReadonlyArray<{ sparkId: string; name: string; totals: DigestCounts }>;
  /** Most asked first. */
  topQuestions: ReadonlyArray<{ question: string; count: number }>;
}

export interface DigestEmail {
  subject: string;
  text: string;
  html: string;
}

/** How many of the questions asked most the digest lists. */
const TOP_QUESTIONS = 3;
/** A question longer than this is cut (with an ellipsis). */
const QUESTION_MAX = 160;
/** The BCP 47 tag numbers, dates and plurals are formatted with: data of each language, not a text. */
const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-ES' };

/** A week worth a digest: a conversation, or a rating given. An empty week sends nothing. */
export function hasActivity(c: DigestCounts): boolean {
  return c.conversations > 0 || c.ratedUp + c.ratedDown > 0;
}

/** The share (0–1) of the answers that came from the documents (not "not covered"); none without answers. */
function answeredShare(c: DigestCounts): number | undefined {
  if (c.answers <= 0) return undefined;
  return Math.min(1, Math.max(0, (c.answers - c.notCovered) / c.answers));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** Markup that goes into the HTML as it is (a link we built); anything else put into a text is escaped. */
class Markup {
  constructor(readonly html: string) {}
}
/** One line, however the question was typed: its whitespace folded, cut when long. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > QUESTION_MAX ? `${line.slice(0, QUESTION_MAX - 1).trimEnd()}…` : line;
}

/** Writes the digest in one language: each text once, as plain text and as HTML. */
class Writer {
  private readonly number: Intl.NumberFormat;
  private readonly percent: Intl.NumberFormat;
  private readonly plurals: Intl.PluralRules;
  private readonly dates: Intl.DateTimeFormat;

  constructor(private readonly language: Language) {
    const locale = LOCALES[language];
    this.number = new Intl.NumberFormat(locale);
    this.percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    this.plurals = new Intl.PluralRules(locale);
    this.dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  }

  n(value: number): string {
    return this.number.format(value);
  }

  share(value: number): string {
    return this.percent.format(value);
  }

  /** A local date (`YYYY-MM-DD`) in words: "March 3, 2025", "3 de marzo de 2025". */
  date(value: string): string {
    return this.dates.format(new Date(`${value}T00:00:00Z`));
  }

  /** The key of a count's plural form (`…_one` or `…_other`). */
  plural<K extends string>(stem: K, count: number): `${K}_one` | `${K}_other` {
    return this.plurals.select(count) === 'one' ? `${stem}_one` : `${stem}_other`;
  }

  text(key: TextKey, vars: Record<string, string | number> = {}): string {
    return t(
      this.language,
      key,
      this.formatted(vars, (v) => v),
    );
  }

  /** The same text as HTML: ours escaped too (it is text), the values escaped unless they are markup we built. */
  html(key: TextKey, vars: Record<string, string | number | Markup> = {}): string {
    return interpolate(escapeHtml(t(this.language, key)), this.formatted(vars, escapeHtml));
  }

  private formatted(vars: Record<string, string | number | Markup>, escape: (v: string) => string) {
    return Object.fromEntries(
      Object.entries(vars).map(([k, v]) => [
        k,
        v instanceof Markup ? v.html : escape(typeof v === 'number' ? this.n(v) : v),
      ]),
    );
  }
}

/** A link as plain text (the address) and as HTML. */
function link(url: string): { text: string; html: Markup } {
  return { text: url, html: new Markup(`<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`) };
}

/** The digest of a week with activity (`hasActivity`), for an owner in `language`; `appUrl` without a trailing `/`. */
export function composeDigest(v: { language: Language; figures: DigestFigures; appUrl: string }): DigestEmail {
  const w = new Writer(v.language);
  const { totals } = v.figures;
  const analytics = link(`${v.appUrl}/analytics`);
  const profile = link(`${v.appUrl}/profile`);
  const share = answeredShare(totals);

  /** Each paragraph as text and as HTML, from the same key and values. */
  type Part = { text: string; html: string };
  const part = (key: TextKey, vars: Record<string, string | number> = {}): Part => ({
    text: w.text(key, vars),
    html: w.html(key, vars),
  });
  const count = (stem: 'digest.conversationCount' | 'digest.answerCount', n: number) =>
    w.text(w.plural(stem, n), { count: n });

  const figures: Part[] = [
    part('digest.conversations', { count: totals.conversations }),
    share === undefined
      ? part('digest.answersNone')
      : part('digest.answers', { count: totals.answers, share: w.share(share) }),
    part('digest.notCovered', { count: totals.notCovered }),
    part('digest.ratings', { up: totals.ratedUp, down: totals.ratedDown }),
  ];
  const sparks: Part[] = v.figures.sparks
    .filter((s) => hasActivity(s.totals))
    .map((s) =>
      part('digest.sparkLine', {
        name: oneLine(s.name),
        conversations: count('digest.conversationCount', s.totals.conversations),
        answers: count('digest.answerCount', s.totals.answers),
        notCovered: s.totals.notCovered,
      }),
    );
  const questions: Part[] = v.figures.topQuestions
    .slice(0, TOP_QUESTIONS)
    .map((q) => part(w.plural('digest.question', q.count), { question: oneLine(q.question), count: q.count }));
  const fix = totals.notCovered + totals.ratedDown > 0 ? part('digest.fix') : undefined;
  const subject = w.text(w.plural('digest.subject', totals.conversations), { count: totals.conversations });
  const hello = part('digest.hello');
  const intro = part('digest.intro', { from: w.date(v.figures.from), to: w.date(v.figures.to) });
  const sections: Array<{ title: Part; items: Part[]; numbered?: boolean }> = [
    { title: part('digest.totals'), items: figures },
    { title: part('digest.sparks'), items: sparks },
    { title: part('digest.questions'), items: questions, numbered: true },
  ].filter((section) => section.items.length > 0);

  const text = [
    hello.text,
    intro.text,
    ...sections.map((section) =>
      [
        `${section.title.text}:`,
        ...section.items.map((item, i) => `${section.numbered ? `${i + 1}.` : '-'} ${item.text}`),
      ].join('\n'),
    ),
    ...(fix ? [fix.text] : []),
    w.text('digest.analytics', { link: analytics.text }),
    w.text('digest.unsubscribe', { link: profile.text }),
  ].join('\n\n');

  const list = (section: (typeof sections)[number]) => {
    const tag = section.numbered ? 'ol' : 'ul';
    return `<h2>${section.title.html}</h2><${tag}>${section.items.map((i) => `<li>${i.html}</li>`).join('')}</${tag}>`;
  };
  const html = [
    `<!doctype html><html lang="${v.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #1f2937;">',
    `<p>${hello.html}</p>`,
    `<p>${intro.html}</p>`,
    ...sections.map(list),
    fix ? `<p>${fix.html}</p>` : '',
    `<p>${w.html('digest.analytics', { link: analytics.html })}</p>`,
    `<p style="font-size: 0.875em; color: #6b7280;">${w.html('digest.unsubscribe', { link: profile.html })}</p>`,
    '</body></html>',
  ].join('');

  return { subject, text, html };
}
