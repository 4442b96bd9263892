/**
 * What the built-in help knows about the product (help.ts answers a question with the article that matches it
 * best). Each "how do I…" article gives the steps and the links to the screens that do it; the plans article is
 * completed with the plan catalogue of the database (`{plans}`, `{trial}`), so it never says other figures than
 * the ones that apply.
 */

import { texts, type Language } from '@sparks/core';

/** The article's text in every language (`help.articles.<id>` of the server catalogue). */
export type Article = Record<Language, string> & {
  /** What it is about, in a few words: they weigh most when a question is matched to an article. */
  topic: Record<Language, string>;
};

export const HELP: Article[] = [
  {
    topic: texts('help.articles.spark.topic'),
    ...texts('help.articles.spark.text'),
  },
  {
    topic: texts('help.articles.createSpark.topic'),
    ...texts('help.articles.createSpark.text'),
  },
  {
    topic: texts('help.articles.uploadDocuments.topic'),
    ...texts('help.articles.uploadDocuments.text'),
  },
  {
    topic: texts('help.articles.testSpark.topic'),
    ...texts('help.articles.testSpark.text'),
  },
  {
    topic: texts('help.articles.publishChat.topic'),
    ...texts('help.articles.publishChat.text'),
  },
  {
    topic: texts('help.articles.wordpressPulse.topic'),
    ...texts('help.articles.wordpressPulse.text'),
  },
  {
    topic: texts('help.articles.unpublishSpark.topic'),
    ...texts('help.articles.unpublishSpark.text'),
  },
  {
    topic: texts('help.articles.plansPrices.topic'),
    ...texts('help.articles.plansPrices.text'),
  },
  {
    topic: texts('help.articles.changeName.topic'),
    ...texts('help.articles.changeName.text'),
  },
  {
    topic: texts('help.articles.profileFirst.topic'),
    ...texts('help.articles.profileFirst.text'),
  },
  {
    topic: texts('help.articles.deleteSpark.topic'),
    ...texts('help.articles.deleteSpark.text'),
  },
  {
    topic: texts('help.articles.pinSparks.topic'),
    ...texts('help.articles.pinSparks.text'),
  },
  {
    topic: texts('help.articles.instructions.topic'),
    ...texts('help.articles.instructions.text'),
  },
];
