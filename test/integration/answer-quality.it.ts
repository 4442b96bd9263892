import fs from 'node:fs';
import path from 'node:path';
import { splitSentences } from '@sparks/core';
import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { createUser, startApp, type TestApp } from './harness';

/**
 * The regression subset of bench/answer-quality.mjs (issue 17): two XQuAD articles (fixtures/xquad-subset,
 * CC BY-SA 4.0), one paragraph a page, every question asked in a test chat through the real api and
 * worker, and three questions of the other article that the Spark should decline. The offline engine is
 * deterministic, so its figures are checked exactly: a change to retrieval, ranking or the composer that
 * moves them must update them here (and say why in bench/RESULTS.md).
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

interface Article {
  title: string;
  paragraphs: Array<{ context: string; qas: Array<{ question: string; answers: Array<{ text: string }> }> }>;
}
const load = (lang: string): Article[] =>
  (
    JSON.parse(
      fs.readFileSync(path.join(__dirname, 'fixtures', 'xquad-subset', `xquad-subset.${lang}.json`), 'utf8'),
    ) as { data: Article[] }
  ).data;

// The same measures as bench/answer-quality.mjs.
const plain = (markdown: string) =>
  markdown
    .replace(/\\([\\`*_[\]{}()#+\-.!<>|~&:@=])/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/^>\s?/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
// Cut where a reader ends it, by the product's rule (not at "Brown v." or "Sr.").
const firstSentence = (text: string) => {
  const line = plain(text.split(/\n+/).find((l) => l.trim()) ?? '');
  return splitSentences(line)[0] ?? line;
};
const norm = (s: string) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim();
const holds = (text: string, answers: string[]) => answers.some((a) => norm(text).includes(norm(a)));

interface Figures {
  questions: number;
  p1: number;
  firstSentence: number;
  anywhere: number;
  medianChars: number;
  declinedOnTopic: number;
  declinedOffTopic: string;
}

async function measure(t: TestApp, lang: 'en' | 'es'): Promise<Figures> {
  const articles = load(lang);
  let questions = 0;
  let p1 = 0;
  let first = 0;
  let anywhere = 0;
  let declinedOnTopic = 0;
  let offTopic = 0;
  let declinedOffTopic = 0;
  const chars: number[] = [];
  for (const [n, article] of articles.entries()) {
    const user = await createUser(t, { language: lang });
    const spark = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...user.auth())
        .send({ name: article.title, options: { language: lang } })
        .expect(201)
    ).body.data as { _id: string };
    await addDocument(sql, {
      sparkId: spark._id,
      userId: await userIdOf(sql, user.username),
      name: `${article.title}.pdf`,
      pages: article.paragraphs.map((p) => p.context),
      language: lang,
    });
    const test = (
      await t
        .http()
        .post(`/api/v1/sparks/${spark._id}/tests`)
        .set(...user.auth())
        .send({ name: 'QA' })
        .expect(201)
    ).body.data as { _id: string };
    let conversationId: string | undefined;
    const ask = async (text: string) => {
      const res = await t
        .http()
        .post(`/api/v1/sparks/${spark._id}/chat/${test._id}`)
        .set(...user.auth())
        .send({ input: { text }, conversationId })
        .expect(201);
      conversationId = res.body.data.conversationId as string;
      return res.body.data.ai.data as { content: string; answer: string; sources: Array<{ page: number }> };
    };
    for (const [i, paragraph] of article.paragraphs.entries()) {
      for (const qa of paragraph.qas) {
        const reply = await ask(qa.question);
        const answers = qa.answers.map((a) => a.text);
        questions += 1;
        if (reply.sources[0]?.page === i + 1) p1 += 1;
        if (holds(firstSentence(reply.content), answers)) first += 1;
        if (holds(plain(reply.content), answers)) anywhere += 1;
        if (reply.answer === 'notCovered') declinedOnTopic += 1;
        chars.push(reply.content.length);
      }
    }
    const other = articles[(n + 1) % articles.length];
    for (const qa of other.paragraphs.flatMap((p) => p.qas).slice(0, 3)) {
      offTopic += 1;
      if ((await ask(qa.question)).answer === 'notCovered') declinedOffTopic += 1;
    }
  }
  const sorted = [...chars].sort((a, b) => a - b);
  return {
    questions,
    p1,
    firstSentence: first,
    anywhere,
    medianChars: sorted[Math.floor((sorted.length - 1) / 2)],
    declinedOnTopic,
    declinedOffTopic: `${declinedOffTopic} / ${offTopic}`,
  };
}

describe('answer quality on an XQuAD subset (offline engine, exact figures)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('in English', async () => {
    expect(await measure(t, 'en')).toEqual({
      questions: 24,
      p1: 21,
      firstSentence: 17,
      anywhere: 17,
      medianChars: 212,
      declinedOnTopic: 2,
      declinedOffTopic: '6 / 6',
    });
  });

  it('in Spanish', async () => {
    expect(await measure(t, 'es')).toEqual({
      questions: 24,
      p1: 20,
      firstSentence: 16,
      anywhere: 16,
      medianChars: 243,
      declinedOnTopic: 1,
      declinedOffTopic: '6 / 6',
    });
  });
});
