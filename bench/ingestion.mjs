#!/usr/bin/env node
// Ingestion throughput: pages per second of one worker's PDF pipeline, side by side with Debian's
// `pdftotext` on the same files, in the same run.
//
//   node bench/ingestion.mjs [--runs 3] [--quick] [--no-db] [--reader auto|poppler|pdfjs] [--json out.json]
//
// "Sparks" is what the `document.ingest` job does with a file: extraction with the worker's PDF
// reader (`PdfTextReader`: poppler's pdftotext in a prlimit-bounded process when it is installed,
// pdf.js in a bounded thread otherwise or with --reader pdfjs), page text assembly, passages of
// whole sentences, language detection — and, unless --no-db, writing the chunks with their tsvector
// in PostgreSQL (one transaction per document, in a scratch database) while the file is still being
// read, as the worker does (`readPdfDocument` and the chunk writer). Reading alone and indexing
// alone are also timed, one after the other, to show where the time goes. "pdftotext" is
// `pdftotext -enc UTF-8 file -`, process start included. CPU counts this process (its threads) and
// its child processes (pdftotext, from /proc/self/stat: 10 ms ticks).
// Needs the built libraries: npx tsc -b worker/tsconfig.json
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cpuSeconds,
  log,
  machine,
  machineCpu,
  onCleanup,
  rootRequire,
  runBench,
  scratchDatabase,
  summarize,
  table,
  writeJsonIfAsked,
} from './lib/common.mjs';
import { makeCorpus, makeDocument } from './lib/pdf-corpus.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const RUNS = option('runs', 3);
const QUICK = args.includes('--quick');
const WITH_DB = !args.includes('--no-db');
const READER = args.includes('--reader') ? args[args.indexOf('--reader') + 1] : 'auto';
const GOAL_PER_CORE = 25;
const GOAL_RATIO = 2;

const { PdfTextReader, findPoppler, readPdfDocument } = rootRequire('./libs/knowledge/dist/index.js');

const median = (xs) => summarize(xs).p50;
const perSecond = (pages, msec) => (pages * 1000) / msec;
const n0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const n1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');

/** CPU milliseconds of this process's children that have ended (cutime + cstime, 100 Hz ticks). */
function childrenCpuMs() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Wall time, and CPU of this process and of the child processes it ran meanwhile. */
function timed(fn) {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const children = childrenCpuMs();
  const value = fn();
  return Promise.resolve(value).then((v) => {
    const used = process.cpuUsage(cpu);
    return {
      value: v,
      ms: Number(process.hrtime.bigint() - start) / 1e6,
      cpuMs: (used.user + used.system) / 1000 + childrenCpuMs() - children,
    };
  });
}

/** A user, a Spark and fresh document rows to complete, in a scratch database. */
async function indexer() {
  const db = rootRequire('./libs/db/dist/index.js');
  const url = await scratchDatabase('ingestion');
  const handle = db.createDb(url, 2);
  onCleanup('close the pool', () => handle.close());
  const account = await new db.AccountsRepository(handle.db).createAccount({
    username: `bench-${randomUUID()}@example.com`,
    email: `bench-${randomUUID()}@example.com`,
    passwordHash: null,
    language: 'es',
    verified: true,
    tenant: { customerId: 'bench', trialDays: 15 },
  });
  const userId = account.user.id;
  const spark = await new db.SparksRepository(handle.db).create(userId, {
    name: 'bench',
    options: { isTest: false, deployToken: 'x', initialMessage: 'x', level: 'PUBLIC', sysPrompt: 'x', language: 'es' },
  });
  const documents = new db.DocumentsRepository(handle.db);
  const database = new URL(url).pathname.slice(1);
  /** CPU seconds the scratch database's backends (the pool's connections) have used so far. */
  const backendsCpu = async () => {
    const r = await handle.pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    return r.rows.reduce((sum, row) => sum + cpuSeconds(row.pid), 0);
  };
  const newDocument = async () => {
    const created = await documents.createWithinLimit(
      userId,
      spark.id,
      {
        name: 'x.pdf',
        storageKey: `documents/${randomUUID()}.pdf`,
        size: 1,
        sha256: randomUUID(),
        conversationId: null,
      },
      1_000_000,
    );
    return created.document.id;
  };
  /** Indexing alone: the chunks of a document read before, in one transaction. */
  const index = async (read) => documents.complete(await newDocument(), read);
  /** What the worker does: the chunks written while the file is read, then the document completed. */
  const ingest = async (extractor, pdf, language) => {
    const writer = documents.openChunkWriter(await newDocument());
    try {
      const { outcome, read, streamed } = await readPdfDocument(extractor, pdf, language, writer.write);
      if (!outcome.ok || !read) throw new Error(`unreadable: ${outcome.ok ? 'NO_TEXT' : outcome.code}`);
      await writer.complete(read, undefined, streamed ? undefined : read.chunks);
      return { outcome, read, streamed };
    } finally {
      await writer.abort();
    }
  };
  return { index, ingest, backendsCpu };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparks-bench-ingestion-'));
  onCleanup('remove the corpus', () => fs.rmSync(dir, { recursive: true, force: true }));
  log('generating the corpus');
  const corpus = await makeCorpus(QUICK ? [10, 25] : undefined);
  for (const doc of corpus) fs.writeFileSync(path.join(dir, doc.name), doc.pdf);
  log(`${corpus.length} files, ${corpus.reduce((s, d) => s + d.pages, 0)} pages`);

  // The worker's defaults (INGEST_MAX_MEMORY_MB=512, 2000 pages, 5 M characters), one file at a time.
  const found = findPoppler();
  if (READER === 'poppler' && !found.tools) throw new Error(`--reader poppler: ${found.missing} not found`);
  const poppler = READER === 'pdfjs' ? undefined : found.tools;
  const extractor = new PdfTextReader({
    limits: { maxPages: 2000, maxChars: 5_000_000, maxStreamBytes: 64 << 20, maxInflatedBytes: 512 << 20 },
    timeoutMs: 120_000,
    maxMemoryMb: 512,
    maxRssMb: 1536,
    poppler,
    concurrency: 1,
  });
  onCleanup('stop the PDF reader', () => extractor.close());
  log(`reader: ${poppler ? `${poppler.pdftotext} (pdf.js as fallback)` : 'pdf.js'}`);
  const db = WITH_DB ? await indexer() : undefined;
  const index = db?.index;
  const ingest = db?.ingest;

  const warm = await makeDocument('en', 1, 7);
  const cold = await timed(() => extractor.extract(warm.pdf));
  const readers = new Set();
  const fallbacks = [];
  const busyAtStart = machineCpu();
  const pgAtStart = (await db?.backendsCpu()) ?? 0;
  let oursMs = 0;

  const rows = [];
  for (const doc of corpus) {
    const file = path.join(dir, doc.name);
    const reference = [];
    for (let r = 0; r < RUNS; r++) {
      const t = await timed(() =>
        execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], {
          maxBuffer: 1 << 28,
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      );
      reference.push(t.ms);
      oursMs += t.cpuMs;
    }
    const wall = [];
    const cpu = [];
    const indexing = [];
    const endToEnd = [];
    let read;
    let streamed = false;
    for (let r = 0; r < RUNS; r++) {
      const t = await timed(async () => {
        const { outcome, read } = await readPdfDocument(extractor, doc.pdf, doc.language);
        if (!outcome.ok) throw new Error(`${doc.name}: ${outcome.code}`);
        readers.add(outcome.reader);
        if (outcome.fallback) fallbacks.push(`${doc.name}: ${outcome.fallback}`);
        return read;
      });
      read = t.value;
      wall.push(t.ms);
      cpu.push(t.cpuMs);
      oursMs += t.cpuMs;
      if (!index) continue;
      indexing.push((await timed(() => index(read))).ms);
      const e = await timed(() => ingest(extractor, doc.pdf, doc.language));
      oursMs += e.cpuMs;
      endToEnd.push(e.ms);
      streamed = e.value.streamed;
    }
    if (read.language !== doc.language || read.pages !== doc.pages) throw new Error(`${doc.name}: misread`);
    const row = {
      name: doc.name,
      pages: doc.pages,
      pdftotextMs: median(reference),
      extractMs: median(wall),
      extractCpuMs: median(cpu),
      indexMs: index ? median(indexing) : undefined,
      chunks: read.chunks.length,
      chars: read.chars,
      streamed,
    };
    // Without a database, end to end is the reading alone.
    row.totalMs = index ? median(endToEnd) : row.extractMs;
    rows.push(row);
    log(`${doc.name}: pdftotext ${n0(row.pdftotextMs)} ms, Sparks ${n0(row.totalMs)} ms`);
  }

  const busyAtEnd = machineCpu();
  const pgMs = (((await db?.backendsCpu()) ?? 0) - pgAtStart) * 1000;
  const sum = (key) => rows.reduce((s, r) => s + (r[key] ?? 0), 0);
  const pages = sum('pages');
  const all = {
    name: '**all**',
    pages,
    pdftotextMs: sum('pdftotextMs'),
    extractMs: sum('extractMs'),
    extractCpuMs: sum('extractCpuMs'),
    indexMs: index ? sum('indexMs') : undefined,
    totalMs: sum('totalMs'),
    chunks: sum('chunks'),
  };
  const columns = [
    ['file', (r) => r.name],
    ['pages', (r) => String(r.pages)],
    ['pdftotext pages/s', (r) => n0(perSecond(r.pages, r.pdftotextMs))],
    ['Sparks extract pages/s', (r) => n0(perSecond(r.pages, r.extractMs))],
    ['extract pages per CPU-s', (r) => n0(perSecond(r.pages, r.extractCpuMs))],
    ...(index
      ? [
          ['index alone in PG ms', (r) => n0(r.indexMs)],
          ['read, then index ms', (r) => n0(r.extractMs + r.indexMs)],
          ['end to end ms (both at once)', (r) => n0(r.totalMs) + (r.streamed === false ? ' ¹' : '')],
        ]
      : []),
    ['Sparks end-to-end pages/s', (r) => n0(perSecond(r.pages, r.totalMs))],
    ['slower than pdftotext', (r) => `${n1(r.totalMs / r.pdftotextMs)}×`],
    ['chunks', (r) => String(r.chunks)],
  ];
  const perCore = perSecond(pages, all.extractCpuMs + (all.indexMs ?? 0));
  const ratio = all.totalMs / all.pdftotextMs;
  const m = machine();
  const pdftotext = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' }).stderr.split('\n')[0]?.trim();
  const readBy = [...readers]
    .map((r) => (r === 'poppler' ? 'poppler pdftotext in a prlimit-bounded process' : 'pdf.js in a bounded thread'))
    .join(' and ');
  // The whole machine's busy CPU over the timed runs (both tools, all files), less this process and its children.
  const others = (busyAtEnd.busy - busyAtStart.busy) * 1000 - oursMs - pgMs;
  const report = [
    `## Ingestion — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${m.cpus} × ${m.cpuModel}, ${m.memory} RAM, ${m.os}; Node ${m.node}; reference ${pdftotext}` +
      (index ? `; ${m.postgres}` : ''),
    '',
    `${corpus.length} generated PDFs (${QUICK ? '10 and 25' : '10, 25, 50, 100 and 200'} pages, Spanish and English, ` +
      `~3,000 characters per page), ${RUNS} runs each, median. One worker, one file at a time, read by ${readBy}` +
      (fallbacks.length > 0 ? ` (handed to pdf.js: ${fallbacks.join('; ')})` : '') +
      '.',
    '',
    table(columns, [...rows, all]),
    ...(index && rows.some((r) => r.streamed === false)
      ? ['', '¹ fewer than 20,000 characters: the language is known only at the end, so nothing is written before.']
      : []),
    '',
    `- Per core: **${n0(perCore)} pages per CPU-second** (extraction and chunking CPU of the worker process and its pdftotext processes` +
      (index ? ', plus the indexing wall time in PostgreSQL' : '') +
      `) — goal ≥ ${GOAL_PER_CORE}: **${perCore >= GOAL_PER_CORE ? 'met' : 'not met'}**.`,
    `- Against pdftotext: Sparks end-to-end is **${n1(ratio)}× slower** on the whole set — goal within ` +
      `${GOAL_RATIO}×: **${ratio <= GOAL_RATIO ? 'met' : 'not met'}**.`,
    `- Of that: reading alone (extraction, page text, passages, language) takes ${n1(all.extractMs / all.pdftotextMs)}× ` +
      `pdftotext's time` +
      (index
        ? `, the indexing in PostgreSQL alone ${n1(all.indexMs / all.pdftotextMs)}×; one after the other they would take ` +
          `${n1((all.extractMs + all.indexMs) / all.pdftotextMs)}×, the worker does both at once.`
        : '.'),
    poppler
      ? `- First file through a fresh reader (a 1-page file): ${n0(cold.ms)} ms; every file is a new pdftotext process.`
      : `- Cold start of an extraction thread (start, load pdf.js, read a 1-page file): ${n0(cold.ms)} ms, once per ` +
        'thread (threads are reused, and replaced after 50 files or after a file that killed one).',
    ...(index
      ? [
          // Each run writes the set twice: indexing alone, then end to end.
          `- PostgreSQL's CPU for the indexing: ${n0(pgMs / RUNS / 2)} ms per writing of the set ` +
            `(${n1(pgMs / RUNS / 2 / pages)} ms a page), against ${n0(all.indexMs)} ms of wall time for the indexing alone.`,
        ]
      : []),
    `- Other load on the machine while timing (busy CPU used by neither this process, its children nor ` +
      `PostgreSQL's backends for this run): about ${(others / 1000 / ((busyAtEnd.total - busyAtStart.total) / m.cpus)).toFixed(2)} cores.`,
  ].join('\n');
  console.log(report);
  writeJsonIfAsked({ rows, all, perCore, ratio, coldMs: cold.ms, readers: [...readers], fallbacks, machine: m });
}

runBench(main);
