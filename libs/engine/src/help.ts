import { textSearchConfig } from '@sparks/contracts';
import { interpolate, t, TRIAL_DAYS } from '@sparks/core';
import { HELP } from './help-articles';
import { normalize } from './flows/understand';
import type { KnowledgeSearch } from './search-port';
import type { Lang } from './texts';

/** A plan of the catalogue (`plans`), as the plans article tells it. */
export interface HelpPlan {
  productName: string;
  unitAmount: number;
  currency: string;
  purchasable: boolean;
  limitInteractions: number;
  limitDeployments: number;
  limitSparks: number;
  limitDocuments: number;
  documentSharing: boolean;
}

/** What the help articles read from the database: the plans' catalogue, and the lexemes of texts. */
export interface HelpSources {
  plans(): Promise<readonly HelpPlan[]>;
  search: Pick<KnowledgeSearch, 'lexemes'>;
}

/** The plans article's figures, from the catalogue (`plans`): the trial's and each plan on sale. */
async function plansText(sources: HelpSources, language: Lang): Promise<{ trial: string; plans: string }> {
  const rows = await sources.plans();
  // The figures' format: data of each language (docs/decisions.md, "One way to translate").
  const n = (value: number) => new Intl.NumberFormat(language === 'es' ? 'es-ES' : 'en-GB').format(value);
  const money = (cents: number, currency: string) =>
    `${n(cents / 100)} ${currency.toLowerCase() === 'eur' ? t(language, 'help.plans.euros') : currency.toUpperCase()}`;
  const free = rows.find((p) => !p.purchasable);
  const published = (count: number) =>
    t(language, count === 1 ? 'help.plans.published_one' : 'help.plans.published_other', { count: n(count) });
  const trial = free
    ? t(language, free.limitDeployments > 0 ? 'help.plans.trialPublishing' : 'help.plans.trial', {
        days: TRIAL_DAYS,
        interactions: n(free.limitInteractions),
        published: published(free.limitDeployments),
      })
    : '';
  const plans = rows
    .filter((p) => p.purchasable)
    .map((p) =>
      t(language, p.documentSharing ? 'help.plans.planWithSharing' : 'help.plans.plan', {
        name: p.productName,
        price: money(p.unitAmount, p.currency),
        interactions: n(p.limitInteractions),
        published: published(p.limitDeployments),
        sparks: n(p.limitSparks),
        documents: n(p.limitDocuments),
      }),
    )
    .join(' ');
  return { trial, plans };
}

/** A message that only asks for help, in either language (accents, case and punctuation aside; a lone "?" too). */
const BARE_HELP =
  /^(?:help(?: me)?|ayuda(?:me)?|socorro|what can you do(?: for me)?|what do you do|how does (?:this|it) work|que puedes hacer(?: por mi)?|que haces|como funciona(?: esto)?|)$/;

/** A question's word found in a text's words: the same stem, or one that starts like it (a loose prefix). */
const found = (words: string[], q: string) =>
  words.some((w) => w === q || (q.length >= 4 && w.startsWith(q.slice(0, Math.max(3, q.length - 2)))));

/** Accents aside for the matching only ("Cómo" is the stop word "como", not a word to look for). */
const plain = (text: string) => text.normalize('NFD').replace(/\p{M}+/gu, '');

/**
 * The article that answers a question best: each of the question's stems (Postgres full-text search, in the
 * question's language) counts for the articles that hold it, more when few do (a word every article has, "Spark",
 * says little), and twice more in an article's topic than in its text. Ties go to the earlier article.
 */
function best(question: string[], articles: Array<{ topic: string[]; body: string[] }>): number | undefined {
  const n = articles.length;
  let top: { at: number; score: number } | undefined;
  const weight = (q: string) => {
    const df = articles.filter((a) => found(a.topic, q) || found(a.body, q)).length;
    return df === 0 ? 0 : Math.log((n + 1) / df);
  };
  const weights = new Map(question.map((q) => [q, weight(q)]));
  articles.forEach((a, at) => {
    let score = 0;
    for (const [q, w] of weights) score += w * ((found(a.body, q) ? 1 : 0) + (found(a.topic, q) ? 2 : 0));
    if (score > 0 && (!top || score > top.score)) top = { at, score };
  });
  return top?.at;
}

/** Answers a product question with the help article that matches it best (Postgres full-text search). */
export async function helpAnswer(sources: HelpSources, question: string, language: Lang): Promise<string> {
  if (BARE_HELP.test(normalize(question))) return t(language, 'help.overview');
  const config = textSearchConfig(language);
  const figures = await plansText(sources, language);
  const texts = HELP.map((a) => interpolate(a[language], figures));
  const topics = HELP.map((a) => a.topic[language]);
  const all = [question, ...topics, ...texts].map(plain);
  const [asked, ...rest] = await sources.search.lexemes(
    all,
    all.map(() => config),
  );
  const at = best(
    asked,
    texts.map((_, i) => ({ topic: rest[i], body: rest[topics.length + i] })),
  );
  return at === undefined ? t(language, 'help.fallback') : texts[at];
}
