import { textSearchConfig } from '@sparks/contracts';
import { TRIAL_DAYS } from '@sparks/core';
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
  const n = (value: number) => new Intl.NumberFormat(language === 'es' ? 'es-ES' : 'en-GB').format(value);
  const money = (cents: number, currency: string) =>
    `${n(cents / 100)} ${currency.toLowerCase() === 'eur' ? 'euros' : currency.toUpperCase()}`;
  const free = rows.find((p) => !p.purchasable);
  const es = language === 'es';
  const published = (count: number) =>
    es
      ? `${n(count)} ${count === 1 ? 'Spark publicado' : 'Sparks publicados'}`
      : `${n(count)} published Spark${count === 1 ? '' : 's'}`;
  const trial = free
    ? es
      ? `Los nuevos usuarios tienen una prueba gratuita de ${TRIAL_DAYS} días con ${n(free.limitInteractions)} interacciones y ${published(free.limitDeployments)}${free.limitDeployments > 0 ? ': pueden probarlo todo, también publicar.' : '.'}`
      : `New users get a ${TRIAL_DAYS}-day free trial with ${n(free.limitInteractions)} interactions and ${published(free.limitDeployments)}${free.limitDeployments > 0 ? ': they can try everything, publishing too.' : '.'}`
    : '';
  const plans = rows
    .filter((p) => p.purchasable)
    .map((p) =>
      es
        ? `${p.productName} cuesta ${money(p.unitAmount, p.currency)} al mes con ${n(p.limitInteractions)} interacciones, ${published(p.limitDeployments)}, hasta ${n(p.limitSparks)} Sparks y ${n(p.limitDocuments)} documentos${p.documentSharing ? ', y documentos de SharePoint y OneDrive' : ''}.`
        : `${p.productName} costs ${money(p.unitAmount, p.currency)} per month with ${n(p.limitInteractions)} interactions, ${published(p.limitDeployments)}, up to ${n(p.limitSparks)} Sparks and ${n(p.limitDocuments)} documents${p.documentSharing ? ', and documents from SharePoint and OneDrive' : ''}.`,
    )
    .join(' ');
  return { trial, plans };
}

const FALLBACK: Record<Lang, string> = {
  es: 'No tengo una respuesta para eso. Prueba a preguntarme por cómo crear un Spark, subir documentos, probarlo, publicarlo o los planes.',
  en: "I don't have an answer for that. Try asking me how to create a Spark, upload documents, test it, publish it, or about the plans.",
};

/** What the assistant says to a bare call for help ("help", "ayuda", "what can you do?"): what to ask it about. */
const OVERVIEW: Record<Lang, string> = {
  es: 'Te ayudo con todo lo de Sparks: cómo crear un Spark, subir sus documentos, probarlo, publicarlo en tu web y los planes. Pregúntame por cualquiera de esas cosas.',
  en: 'I can help with anything about Sparks: how to create a Spark, upload its documents, test it, publish it on your website, and the plans. Ask me about any of those.',
};

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
  if (BARE_HELP.test(normalize(question))) return OVERVIEW[language];
  const config = textSearchConfig(language);
  const figures = await plansText(sources, language);
  const texts = HELP.map((a) => a[language].replace('{trial}', figures.trial).replace('{plans}', figures.plans));
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
  return at === undefined ? FALLBACK[language] : texts[at];
}
