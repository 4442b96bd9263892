import {
  ExtractionInterrupted,
  findPoppler,
  PdfExtractor,
  PdfTextReader,
  readDocument,
  readPdfDocument,
  type PdfReaderName,
  type PdfTextReaderOptions,
  type ReadOutcome,
} from '@sparks/knowledge';
import {
  bombPdf,
  brokenPageTreePdf,
  GUIA_PAGES,
  GUIDE_PAGES,
  heavyPagePdf,
  heavyPagesPdf,
  ligaturesPdf,
  longPages,
  makePdf,
  sentencesOf,
  TWO_COLUMNS,
  twoColumnPdf,
} from './fixtures/pdfs';
import { longPdf } from './support/knowledge';

/** The PDF readers on their own, without the api: limits, timeouts, memory bounds, poppler and pdf.js. */
describe('knowledge: reading PDFs (PdfExtractor, PdfTextReader)', () => {
  let guia: Buffer;
  beforeAll(async () => {
    guia = await makePdf(GUIA_PAGES);
  });

  describe('time and memory bounds of the extraction threads', () => {
    const limits = { maxPages: 2000, maxChars: 5_000_000, maxStreamBytes: 64 << 20, maxInflatedBytes: 256 << 20 };
    const options = { limits, timeoutMs: 60_000, maxMemoryMb: 256, maxRssMb: 8192 };

    it('stops a file that takes too long (TIMEOUT) and goes on with a fresh thread', async () => {
      // Forty huge pages (seconds each to lay out) against a 10 s allowance: the reading cannot end in time on
      // any machine, while a fresh thread's start and a one-page file fit in it even on a loaded one. The
      // outcome is asserted, not the clock.
      const long = heavyPagesPdf(30_000, 40);
      const small = await makePdf([GUIDE_PAGES[0]]);
      const extractor = new PdfExtractor({
        ...options,
        limits: { ...limits, maxChars: 500_000_000 },
        timeoutMs: 10_000,
      });
      try {
        expect(await extractor.extract(small)).toMatchObject({ ok: true, pageCount: 1 }); // warm
        expect(await extractor.extract(long)).toEqual({ ok: false, code: 'TIMEOUT' });
        expect(await extractor.extract(small)).toMatchObject({ ok: true, pageCount: 1 });
      } finally {
        await extractor.close();
      }
    });

    it('stops a file that needs more memory than its thread may use (TOO_COMPLEX), without harm to the process', async () => {
      const extractor = new PdfExtractor({ ...options, maxMemoryMb: 8 });
      try {
        expect(await extractor.extract(await longPdf())).toEqual({ ok: false, code: 'TOO_COMPLEX' });
      } finally {
        await extractor.close();
      }
    });

    it('refuses more pages than allowed and more text than allowed', async () => {
      const extractor = new PdfExtractor({ ...options, limits: { ...limits, maxPages: 100, maxChars: 20_000 } });
      try {
        expect(await extractor.extract(await longPdf())).toEqual({
          ok: false,
          code: 'TOO_MANY_PAGES',
          params: { pages: 600, max: 100 },
        });
        expect(await extractor.extract(await makePdf(longPages(40)))).toEqual({
          ok: false,
          code: 'TOO_MUCH_TEXT',
          params: { max: 20_000 },
        });
      } finally {
        await extractor.close();
      }
    });
  });

  describe('the PDF readers: poppler in a bounded process, pdf.js in a bounded thread as its fallback', () => {
    const limits = { maxPages: 2000, maxChars: 5_000_000, maxStreamBytes: 64 << 20, maxInflatedBytes: 256 << 20 };
    const options: PdfTextReaderOptions = { limits, timeoutMs: 60_000, maxMemoryMb: 256, maxRssMb: 8192 };
    const poppler = findPoppler();
    const readers: Array<[PdfReaderName, (o?: Partial<PdfTextReaderOptions>) => PdfTextReader]> = [
      ['poppler', (o = {}) => new PdfTextReader({ ...options, ...o, poppler: poppler.tools })],
      ['pdfjs', (o = {}) => new PdfTextReader({ ...options, ...o })],
    ];
    /** The text of each page with white space collapsed, as chunks hold it. */
    const flat = (outcome: ReadOutcome) => (outcome.ok ? outcome.pages.map((p) => p.replace(/\s+/g, ' ')) : []);
    const withoutReader = ({ reader: _reader, fallback: _fallback, ...outcome }: ReadOutcome) => outcome;

    it('has poppler-utils to test with (npm test installs it), so that both readers are tested', () => {
      expect(poppler.tools ? 'found' : `${poppler.missing} is missing: apt-get install poppler-utils`).toBe('found');
    });

    describe.each(readers)('%s', (name, make) => {
      let reader: PdfTextReader;
      beforeAll(() => {
        reader = make();
      });
      afterAll(() => reader.close());

      it('hands out the passages while it reads (poppler), or all at the end (pdf.js), the same either way', async () => {
        const pdf = await longPdf();
        const calls: Array<{ pages: number[]; config: string }> = [];
        const { outcome, read, streamed } = await readPdfDocument(reader, pdf, 'en', (chunks, config) =>
          calls.push({ pages: chunks.map((c) => c.page), config }),
        );
        expect(outcome).toMatchObject({ ok: true, pageCount: 600, reader: name });
        expect(read).toEqual(readDocument(outcome.ok ? outcome.pages : [], 'en'));
        expect(read!.language).toBe('es');
        if (name === 'poppler') {
          expect(streamed).toBe(true);
          expect(calls.length).toBeGreaterThan(1);
          expect(calls.flatMap((c) => c.pages)).toEqual(read!.chunks.map((c) => c.page));
          expect(new Set(calls.map((c) => c.config))).toEqual(new Set(['spanish']));
        } else {
          expect(streamed).toBe(false);
          expect(calls).toEqual([]);
        }
      });

      it('reads every page of the Spanish guide, each sentence whole and on its own page', async () => {
        const outcome = await reader.extract(guia);
        expect(outcome).toMatchObject({ ok: true, pageCount: 4, reader: name });
        expect(outcome.fallback).toBeUndefined();
        const pages = flat(outcome);
        for (const { page, sentence } of sentencesOf(GUIA_PAGES)) {
          const on = pages.flatMap((text, i) => (text.includes(sentence) ? [i + 1] : []));
          expect({ sentence, on }).toEqual({ sentence, on: [page] });
        }
        // Chunked as the ingestion does: every sentence in exactly one passage, of the right page.
        const chunks = readDocument(outcome.ok ? outcome.pages : [], 'es')!.chunks;
        for (const { page, sentence } of sentencesOf(GUIA_PAGES)) {
          expect(chunks.filter((c) => c.content.includes(sentence)).map((c) => c.page)).toEqual([page]);
        }
      });

      it('spells out ligatures and keeps Spanish accents', async () => {
        const pages = flat(await reader.extract(ligaturesPdf()));
        expect(pages).toHaveLength(1);
        expect(pages[0]).toContain('La oficina financiera tiene un flujo eficaz.');
        expect(pages[0]).toContain('Información útil para el año que viene.');
      });

      it('keeps the paragraphs of a two-column page whole', async () => {
        const [page] = flat(await reader.extract(await twoColumnPdf()));
        for (const paragraph of [...TWO_COLUMNS.left, ...TWO_COLUMNS.right]) expect(page).toContain(paragraph);
      });

      it('reads a PDF encrypted with only an owner password (it opens without one), as before', async () => {
        const outcome = await reader.extract(await makePdf(GUIDE_PAGES, { ownerPasswordOnly: true }));
        expect(outcome).toMatchObject({ ok: true, pageCount: 3, reader: name });
        expect(flat(outcome)[2]).toContain('A puncture is repaired for free');
      });

      it('reads a scanned document as pages without text (then refused as NO_TEXT)', async () => {
        const outcome = await reader.extract(await makePdf([{ image: true }, { image: true }]));
        expect(outcome).toMatchObject({ ok: true, pageCount: 2, reader: name });
        expect(readDocument(outcome.ok ? outcome.pages : [], 'es')).toBeUndefined();
      });

      it.each([
        { what: 'a user password', file: () => makePdf(GUIA_PAGES, { userPassword: 'secreto' }), code: 'ENCRYPTED' },
        { what: 'a cut file', file: async () => (await makePdf(GUIA_PAGES)).subarray(0, 2500), code: 'TRUNCATED' },
        {
          what: 'garbage',
          file: () => Promise.resolve(Buffer.from(`%PDF-1.7\n${'garbage '.repeat(500)}\n%%EOF\n`)),
          code: 'MALFORMED',
        },
        { what: 'a decompression bomb', file: () => Promise.resolve(bombPdf(200)), code: 'TOO_COMPLEX' },
      ])('refuses $what as $code', async ({ file, code }) => {
        expect(withoutReader(await reader.extract(await file()))).toEqual({ ok: false, code });
      });

      it('refuses more pages than allowed and more text than allowed, naming the numbers', async () => {
        const strict = make({ limits: { ...limits, maxPages: 100, maxChars: 20_000 } });
        try {
          expect(withoutReader(await strict.extract(await longPdf()))).toEqual({
            ok: false,
            code: 'TOO_MANY_PAGES',
            params: { pages: 600, max: 100 },
          });
          expect(withoutReader(await strict.extract(await makePdf(longPages(40))))).toEqual({
            ok: false,
            code: 'TOO_MUCH_TEXT',
            params: { max: 20_000 },
          });
        } finally {
          await strict.close();
        }
      });

      it('stops a file that takes too long (TIMEOUT), and reads the next one', async () => {
        // As above: a reading that cannot end within 10 s, a next one that easily does; no clock asserted.
        const quick = make({ timeoutMs: 10_000, limits: { ...limits, maxChars: 500_000_000 } });
        try {
          expect(withoutReader(await quick.extract(heavyPagesPdf(30_000, 40)))).toEqual({ ok: false, code: 'TIMEOUT' });
          expect(await quick.extract(await makePdf([GUIDE_PAGES[0]]))).toMatchObject({ ok: true, pageCount: 1 });
        } finally {
          await quick.close();
        }
      });

      it('stops a reading, and one waiting for its turn, when asked (the job hit its time limit); then reads the next', async () => {
        const one = make({ concurrency: 1 });
        try {
          // Seconds of work for either reader (poppler gives it up to pdf.js after its budget).
          const heavy = heavyPagePdf(50_000);
          const stopFirst = new AbortController();
          const stopSecond = new AbortController();
          const first = one.extract(heavy, { signal: stopFirst.signal });
          const second = one.extract(heavy, { signal: stopSecond.signal }); // one file at a time: it waits
          await new Promise((r) => setTimeout(r, 300));
          stopSecond.abort();
          await expect(second).rejects.toBeInstanceOf(ExtractionInterrupted);
          stopFirst.abort();
          await expect(first).rejects.toBeInstanceOf(ExtractionInterrupted);
          expect(await one.extract(await makePdf([GUIDE_PAGES[0]]))).toMatchObject({ ok: true, pageCount: 1 });
        } finally {
          await one.close();
        }
      });

      it('refuses a file that needs more memory than allowed (TOO_COMPLEX), without harm to the process', async () => {
        const small = make({ maxMemoryMb: 8 });
        try {
          expect(withoutReader(await small.extract(await longPdf()))).toEqual({ ok: false, code: 'TOO_COMPLEX' });
        } finally {
          await small.close();
        }
      });
    });

    describe('what poppler leaves to pdf.js, which judges it as before', () => {
      const [, [, makePdfjs]] = readers;
      const both = async (file: Buffer, o: Partial<PdfTextReaderOptions> = {}) => {
        const first = readers[0][1](o);
        const second = makePdfjs(o);
        try {
          return [await first.extract(file), await second.extract(file)];
        } finally {
          await Promise.all([first.close(), second.close()]);
        }
      };

      it('a damaged page tree (poppler would drop a page and misnumber the next)', async () => {
        const [viaPoppler, pdfjs] = await both(brokenPageTreePdf());
        expect(viaPoppler).toMatchObject({ reader: 'pdfjs', fallback: expect.stringMatching(/Kid object/) });
        expect(withoutReader(viaPoppler)).toEqual(withoutReader(pdfjs));
      });

      it('a file poppler runs out of memory on (prlimit)', async () => {
        const file = heavyPagePdf(10_000);
        const [viaPoppler, pdfjs] = await both(file, { maxMemoryMb: 48 });
        expect(viaPoppler).toMatchObject({
          ok: true,
          reader: 'pdfjs',
          fallback: expect.stringMatching(/memory|bad_alloc|SIGABRT|SIGSEGV/i),
        });
        expect(withoutReader(viaPoppler)).toEqual(withoutReader(pdfjs));
        expect(flat(viaPoppler)[0]).toContain('La cigüeña del campanario vigilaba el pueblo');
      });

      it('a file poppler takes longer than its budget to read', async () => {
        const [viaPoppler, pdfjs] = await both(guia, { popplerBudgetMs: () => 0 });
        expect(viaPoppler).toMatchObject({ ok: true, pageCount: 4, fallback: expect.stringMatching(/took longer/) });
        expect(withoutReader(viaPoppler)).toEqual(withoutReader(pdfjs));
      });
    });
  });
});
