import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { splitSentences } from '@sparks/core';
import { useKnowledgeApp, type Owner } from './support/knowledge';

/**
 * The regression subset of bench/business-qa.mjs (issue 29): two businesses of the small-business set
 * (fixtures/smb-qa-subset), each an English and a Spanish document made into a PDF as a word processor
 * would (lines kept, long lines wrapped), uploaded and read by the real worker; every question asked in a
 * test chat through the api. The offline engine is deterministic, so its figures are checked exactly: a
 * change that moves them must update them here and say why in bench/RESULTS.md.
 */
interface Business {
  id: string;
  lang: 'en' | 'es';
  title: string;
  pages: string[];
  questions: Array<{ q: string; gold: string[] | null; variant: string }>;
}
const { businesses } = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'fixtures', 'smb-qa-subset', 'businesses.json'), 'utf8'),
) as { businesses: Business[] };

/** As bench/lib/business-measures.mjs makes it: A4, 11 pt Helvetica, one line of the data a line. */
function businessPdf(pages: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, size: 'A4', margin: 60 });
  const parts: Buffer[] = [];
  doc.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  for (const text of pages) {
    doc.addPage();
    doc.font('Helvetica').fontSize(11).text(text, { lineGap: 2 });
  }
  doc.end();
  return done;
}

// The benchmark's comparison: no markdown, lower case, no accents, 20:30 = 20.30 = 20,30.
const comparable = (s: string) =>
  s
    .replace(/\\([\\`*_[\]{}()#+\-.!<>|~&:@=])/g, '$1')
    .replace(/\*\*|__/g, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/(\d)[.,:](\d)/g, '$1:$2')
    .replace(/\s+/g, ' ');
const firstSentence = (text: string) => {
  const line = comparable(text.split(/\n+/).find((l) => l.trim()) ?? '');
  return splitSentences(line)[0] ?? line;
};
const holds = (text: string, gold: string[]) => gold.some((g) => text.includes(comparable(g)));

interface Figures {
  answerable: number;
  firstSentence: number;
  otherLanguage: string;
  notCovered: number;
  refused: number;
  /** Replies whose first line ends in dot leaders or a dangling word: a row or sentence cut short. */
  cut: number;
}

describe('answers from small-business documents (offline engine, exact figures)', () => {
  const k = useKnowledgeApp();

  async function measure(lang: 'en' | 'es'): Promise<Figures> {
    const f: Figures = { answerable: 0, firstSentence: 0, otherLanguage: '', notCovered: 0, refused: 0, cut: 0 };
    let cross = 0;
    let crossRight = 0;
    for (const business of businesses.filter((b) => b.lang === lang)) {
      const user: Owner = await k.owner(lang);
      const sparkId = (await k.spark(user, lang)).id;
      const upload = await k
        .upload(user, { sparkId }, await businessPdf(business.pages), `${business.id}.pdf`)
        .expect(201);
      await k.waitForStatus(user, sparkId, upload.body.data._id as string, 'completed');
      const ask = await k.testChat(user, sparkId, 'QA');
      let conversationId: string | undefined;
      for (const q of business.questions) {
        const data = await ask(q.q, conversationId);
        conversationId = data.conversationId as string;
        const reply = data.ai.data as { content: string; answer: string };
        if (
          reply.answer === 'answer' &&
          /(\.{2,}|…|\b(a|de|to|and|y|the|of))$/i.test(reply.content.split('\n')[0].trim())
        )
          f.cut += 1;
        if (q.gold === null) {
          f.notCovered += 1;
          if (reply.answer === 'notCovered') f.refused += 1;
          continue;
        }
        f.answerable += 1;
        const right = holds(firstSentence(reply.content), q.gold);
        if (right) f.firstSentence += 1;
        if (q.variant === 'cross-language') {
          cross += 1;
          if (right) crossRight += 1;
        }
      }
    }
    f.otherLanguage = `${crossRight} / ${cross}`;
    return f;
  }

  it('in English', async () => {
    expect(await measure('en')).toEqual({
      answerable: 44,
      firstSentence: 42,
      otherLanguage: '8 / 8',
      notCovered: 16,
      refused: 15,
      cut: 0,
    });
  });

  it('in Spanish', async () => {
    expect(await measure('es')).toEqual({
      answerable: 44,
      firstSentence: 42,
      otherLanguage: '8 / 8',
      notCovered: 16,
      refused: 15,
      cut: 0,
    });
  });
});
