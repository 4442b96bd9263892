#!/usr/bin/env node
// Reading a website (issue 32): the reader of libs/knowledge (built: libs/knowledge/dist) against a local site of
// N pages served by this script — a sitemap, pages of about 12 kB of HTML each (a menu, paragraphs, a price table,
// a footer), each with an ETag.
//
//   node bench/web-reader.mjs [--pages 500] [--concurrency 4] [--host-delay 100] [--json out.json]
//
// 1. First read: the pages found (robots.txt, sitemap) and each one read (fetched, its text extracted with
//    jsdom + Readability, hashed) — pages per second, and CPU per page of this process (the reader; the site's
//    own serving is small beside it).
// 2. A sync of the same pages unchanged: each page asked again with its ETag — requests per page (goal ≤ 1) and the
//    time (goal under a minute with the product's per-host delay).
// 3. The same pages unchanged without ETags (a server that sends none): the bytes' hash spares the extraction.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { log, rootRequire, runBench, table, machine, writeJsonIfAsked } from './lib/common.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const PAGES = Number(option('pages', 500));
const CONCURRENCY = Number(option('concurrency', 4));
const HOST_DELAY = Number(option('host-delay', 100));

const knowledge = rootRequire('./libs/knowledge/dist/index.js');

function pageHtml(i) {
  const rows = Array.from(
    { length: 40 },
    (_, r) => `<tr><td>Item ${i}-${r}</td><td>${(r * 1.25).toFixed(2)} €</td></tr>`,
  );
  const paragraphs = Array.from(
    { length: 12 },
    (_, p) =>
      `<p>Paragraph ${p} of page ${i}: our bakery bakes bread, cakes and pastries every morning with local flour.</p>`,
  );
  const nav = Array.from({ length: 30 }, (_, n) => `<a href="/page-${n}">Page ${n}</a>`).join(' ');
  return `<!doctype html><html><head><title>Page ${i} · Panadería Sol</title></head><body><header><nav>${nav}</nav></header><main><h1>Page ${i}</h1>${paragraphs.join('')}<table>${rows.join('')}</table></main><footer>© Panadería Sol · Calle Mayor 1</footer></body></html>`;
}

function startSite({ etags }) {
  const pages = Array.from({ length: PAGES }, (_, i) => pageHtml(i));
  const tags = pages.map((html) => `"${createHash('sha1').update(html).digest('hex')}"`);
  const counts = { requests: 0, notModified: 0 };
  const server = http.createServer((req, res) => {
    counts.requests += 1;
    const url = req.url ?? '/';
    if (url === '/robots.txt') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end(`User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/sitemap.xml\n`);
    }
    if (url === '/sitemap.xml') {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      const locs = pages.map((_, i) => `<url><loc>http://${req.headers.host}/page-${i}</loc></url>`).join('');
      return res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`,
      );
    }
    const match = /^\/page-(\d+)$/.exec(url);
    const i = match ? Number(match[1]) : -1;
    if (i < 0 || i >= pages.length) {
      res.writeHead(404);
      return res.end();
    }
    if (etags && req.headers['if-none-match'] === tags[i]) {
      counts.notModified += 1;
      res.writeHead(304, { ETag: tags[i] });
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...(etags ? { ETag: tags[i] } : {}) });
    res.end(pages[i]);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}`, counts })),
  );
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function pass(label, base, counts, previous) {
  const fetcher = new knowledge.WebFetcher({
    userAgent: 'SparksBot/1.0 (bench)',
    allowPrivate: true,
    hostDelayMs: HOST_DELAY,
  });
  const before = { requests: counts.requests, notModified: counts.notModified, cpu: cpuMs(), at: performance.now() };
  const site = await knowledge.discoverSite(`${base}/`, fetcher, { limit: PAGES });
  const readings = await knowledge.readPages(
    site.pages.map((url) => ({ url, previous: previous?.get(url) })),
    fetcher,
    CONCURRENCY,
  );
  const seconds = (performance.now() - before.at) / 1000;
  const kinds = {};
  for (const r of readings) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
  const pageRequests = counts.requests - before.requests - 2; // robots.txt and the sitemap
  const row = {
    label,
    pages: site.pages.length,
    kinds: Object.entries(kinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', '),
    requestsPerPage: pageRequests / site.pages.length,
    seconds,
    pagesPerSecond: site.pages.length / seconds,
    cpuMsPerPage: (cpuMs() - before.cpu) / site.pages.length,
  };
  log(`${label}: ${row.pages} pages (${row.kinds}) in ${seconds.toFixed(1)} s`);
  const kept = new Map();
  for (const r of readings)
    if (r.kind === 'read')
      kept.set(r.url, { etag: r.etag, lastModified: r.lastModified, hash: r.hash, bodyHash: r.bodyHash });
  return { row, kept };
}

runBench(async () => {
  const withTags = await startSite({ etags: true });
  const first = await pass('first read', withTags.base, withTags.counts);
  const again = await pass('sync, unchanged (ETag: 304)', withTags.base, withTags.counts, first.kept);
  withTags.server.close();
  const noTags = await startSite({ etags: false });
  const firstPlain = await pass('first read, no ETags', noTags.base, noTags.counts);
  const keptBytes = new Map([...firstPlain.kept].map(([url, s]) => [url, { hash: s.hash, bodyHash: s.bodyHash }]));
  const plain = await pass('sync, unchanged (no ETag: same bytes)', noTags.base, noTags.counts, keptBytes);
  noTags.server.close();

  const rows = [first.row, again.row, firstPlain.row, plain.row];
  const m = machine();
  console.log(`## Reading a website: ${PAGES} pages of a local site\n`);
  console.log(
    `${m.cpus} × ${m.cpuModel}, ${m.memory}, Node ${m.node}; ${new Date().toISOString().slice(0, 10)}; ${CONCURRENCY} requests at a time, ${HOST_DELAY} ms between two requests to the host.\n`,
  );
  console.log(
    table(
      [
        ['pass', (r) => r.label],
        ['pages', (r) => String(r.pages)],
        ['outcome', (r) => r.kinds],
        ['requests per page', (r) => r.requestsPerPage.toFixed(2)],
        ['seconds', (r) => r.seconds.toFixed(1)],
        ['pages/s', (r) => r.pagesPerSecond.toFixed(1)],
        ['CPU ms per page (reader)', (r) => r.cpuMsPerPage.toFixed(1)],
      ],
      rows,
    ),
  );
  const goal = again.row.requestsPerPage <= 1 && again.row.seconds < 60;
  console.log(
    `\nGoal (a sync of ${PAGES} unchanged pages: ≤ 1 request each, under a minute): ${goal ? 'met' : 'not met'} — ${again.row.requestsPerPage.toFixed(2)} requests per page in ${again.row.seconds.toFixed(1)} s.`,
  );
  writeJsonIfAsked({ pages: PAGES, concurrency: CONCURRENCY, hostDelayMs: HOST_DELAY, rows });
});
