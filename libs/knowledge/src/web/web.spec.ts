import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { isPublicAddress } from './address';
import { decodePage } from './charset';
import { extractPage, pageLinks } from './extract';
import { WebFetcher, WebFetchError } from './fetch';
import { readPage, readPages } from './page';
import { discoverSite, readSitemap } from './site';

/** A small website served by the test: each path answers what `routes` says, and every request is counted. */
function site(routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) route(req, res);
    else {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<p>Not found</p>');
    }
  });
  return {
    hits,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const html = (body: string, title = 'Page') =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/menu">Menu</a></nav>${body}<footer>© Panadería Sol · <a href="/legal">Legal</a></footer></body></html>`;
const page =
  (body: string, title?: string, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
    res.end(html(body, title));
  };
const redirect = (to: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(302, { Location: to });
  res.end();
};

/** Reaches only the test's own server (127.0.0.1), as a public address would be reached. */
const onlyLoopback = (address: string) => address === '127.0.0.1';
const fetcher = (options: Partial<ConstructorParameters<typeof WebFetcher>[0]> = {}) =>
  new WebFetcher({ userAgent: 'SparksBot/1.0 (test)', allowAddress: onlyLoopback, hostDelayMs: 0, ...options });

describe('isPublicAddress: only what the public internet routes', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('WebFetcher: safe fetching', () => {
  const local = site({
    '/ok': page('<p>Open</p>', 'Hours'),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-private-name': redirect('http://intranet.test/secret'),
    '/to-ok': redirect('/ok'),
    '/loop': redirect('/loop'),
    '/slow': () => undefined,
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.write('<p>Open from');
    },
    '/cut': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '1000' });
      res.write('<p>Open from');
      setTimeout(() => res.destroy(), 20);
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<p>' + 'x'.repeat(300_000) + '</p>');
    },
    '/bomb': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.alloc(5_000_000, 0x61)));
    },
    '/etag': (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { ETag: '"v1"' });
        res.end();
      } else page('<p>Fresh bread every morning.</p>', 'Bread', { ETag: '"v1"' })(req, res);
    },
  });
  let base = '';
  beforeAll(async () => {
    base = await local.start();
  });
  afterAll(() => local.stop());

  it('refuses other schemes, credentials, and private, loopback and metadata addresses before connecting', async () => {
    const strict = new WebFetcher({ userAgent: 'SparksBot/1.0 (test)' });
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'http://user:pw@example.com/', 'nonsense'])
      await expect(strict.get(url)).rejects.toMatchObject({ code: 'NOT_HTTP' });
    for (const url of [`${base}/ok`, 'http://169.254.169.254/', 'http://[::1]/', 'http://10.0.0.8/'])
      await expect(strict.get(url)).rejects.toMatchObject({ code: 'ADDRESS_NOT_PUBLIC' });
    // A name that resolves to a private address is refused after DNS, before any request is sent.
    const named = new WebFetcher({
      userAgent: 'SparksBot/1.0 (test)',
      lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    });
    const before = local.hits.length;
    await expect(named.get(`http://shop.test:${new URL(base).port}/ok`)).rejects.toMatchObject({
      code: 'ADDRESS_NOT_PUBLIC',
    });
    expect(local.hits.length).toBe(before);
  });

  it('checks every redirect again: to a metadata address or a name that resolves privately, refused', async () => {
    const f = fetcher({
      lookup: (host) => Promise.resolve([{ address: host === 'intranet.test' ? '10.0.0.5' : '127.0.0.1', family: 4 }]),
    });
    await expect(f.get(`${base}/to-metadata`)).rejects.toMatchObject({ code: 'ADDRESS_NOT_PUBLIC' });
    await expect(f.get(`${base}/to-private-name`)).rejects.toMatchObject({ code: 'ADDRESS_NOT_PUBLIC' });
    const res = await f.get(`${base}/to-ok`);
    expect(res).toMatchObject({ status: 200, url: `${base}/ok` });
    await expect(f.get(`${base}/loop`)).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
  });

  it('gives up on a slow page, a huge one and a gzip bomb, and keeps a total for the whole sync', async () => {
    await expect(fetcher({ timeoutMs: 300 }).get(`${base}/slow`)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(fetcher({ timeoutMs: 300 }).get(`${base}/slow-body`)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(fetcher().get(`${base}/cut`)).rejects.toMatchObject({ code: 'UNREACHABLE' });
    await expect(fetcher({ maxBytes: 100_000 }).get(`${base}/huge`)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(fetcher({ maxBytes: 1_000_000 }).get(`${base}/bomb`)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    const sync = fetcher({ maxTotalBytes: 500_000 });
    await sync.get(`${base}/huge`);
    await expect(sync.get(`${base}/huge`)).rejects.toBeInstanceOf(WebFetchError);
  });

  it('sends our user agent and conditional headers; a 304 is an unchanged page', async () => {
    const f = fetcher();
    const first = await readPage(`${base}/etag`, f);
    expect(first).toMatchObject({ kind: 'read', title: 'Bread', text: 'Fresh bread every morning.', etag: '"v1"' });
    const again = await readPage(`${base}/etag`, f, { etag: '"v1"' });
    expect(again).toEqual({ kind: 'unchanged', etag: '"v1"', lastModified: null });
    // No validators: the same bytes, or the same text in other bytes, did not change.
    const { hash, bodyHash } = first.kind === 'read' ? first : { hash: '', bodyHash: '' };
    expect(await readPage(`${base}/etag`, f, { bodyHash })).toMatchObject({ kind: 'unchanged', bodyHash });
    expect(await readPage(`${base}/etag`, f, { hash, bodyHash: 'other bytes' })).toMatchObject({ kind: 'unchanged' });
    expect(await readPage(`${base}/etag`, f, { hash: 'other text' })).toMatchObject({ kind: 'read', hash });
    expect(await readPage(`${base}/missing`, f)).toEqual({ kind: 'gone', status: 404 });
  });

  it('reads pages a few at a time, in the order given; a refused one does not stop the rest', async () => {
    const readings = await readPages(
      [{ url: `${base}/ok` }, { url: 'http://10.0.0.9/' }, { url: `${base}/missing` }, { url: `${base}/etag` }],
      fetcher(),
      2,
    );
    expect(readings.map((r) => [r.url, r.kind])).toEqual([
      [`${base}/ok`, 'read'],
      ['http://10.0.0.9/', 'error'],
      [`${base}/missing`, 'gone'],
      [`${base}/etag`, 'read'],
    ]);
    expect(readings[1]).toMatchObject({ error: { code: 'ADDRESS_NOT_PUBLIC' } });
  });

  it('waits between two requests to the same host', async () => {
    const f = fetcher({ hostDelayMs: 200 });
    const start = Date.now();
    await f.get(`${base}/ok`);
    await f.get(`${base}/ok`);
    await f.get(`${base}/ok`);
    expect(Date.now() - start).toBeGreaterThanOrEqual(390);
  });
});

describe('decodePage: a page in the encoding it was written in', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  it.each([
    ['UTF-8, nothing declared', Buffer.from('<p>Panadería Sol</p>', 'utf8'), 'text/html'],
    ['Latin-1, nothing declared (not valid UTF-8)', latin1('<p>Panadería Sol</p>'), 'text/html'],
    ['Latin-1, declared by a meta', latin1('<meta charset="iso-8859-1"><p>Panadería Sol</p>'), 'text/html'],
    ['Latin-1, declared by the header', latin1('<p>Panadería Sol</p>'), 'text/html; charset=ISO-8859-1'],
    ['UTF-8 with a byte-order mark', Buffer.from('\ufeff<p>Panadería Sol</p>', 'utf8'), 'text/html; charset=latin1'],
  ])('%s', (_label, body, contentType) => {
    expect(decodePage(body, contentType)).toContain('Panadería Sol');
  });
});

describe('extractPage: the main text of a page, tables and lists as rows, without navigation and footer', () => {
  it('keeps headings, paragraphs, list items and table rows; leaves out nav, footer, scripts and forms', () => {
    const out = extractPage(
      html(
        `<main><h1>Our prices</h1><p>All our bread is baked   every morning.</p>
         <ul><li>Baguette: 1.20 €</li><li>Croissant: <strong>1.50 €</strong></li></ul>
         <table><tr><th>Day</th><th>Hours</th></tr><tr><td>Monday</td><td>8:00–14:00</td></tr></table>
         <script>var tracking = 1;</script><form><input name="q"><button>Search</button></form></main>`,
        'Prices · Panadería Sol',
      ),
    );
    expect(out.title).toBe('Prices · Panadería Sol');
    expect(out.text.split('\n')).toEqual([
      // Readability makes an article's <h1> an <h2> (the page's title is its own).
      '## Our prices',
      'All our bread is baked every morning.',
      '- Baguette: 1.20 €',
      '- Croissant: 1.50 €',
      'Day | Hours',
      'Monday | 8:00–14:00',
    ]);
  });

  it('reads a short page Readability finds no article in', () => {
    const out = extractPage(html('<div><b>Call us:</b> 555 123 456</div>', 'Contact'));
    expect(out).toEqual({ title: 'Contact', text: 'Call us: 555 123 456' });
  });

  it('finds the links of a page, absolute, without fragments or mail links', () => {
    const links = pageLinks(
      '<a href="/menu#top">Menu</a><a href="about">About</a><a href="mailto:a@b.c">Mail</a><a href="#x">Top</a>',
      'https://sol.example/es/',
    );
    expect(links).toEqual(['https://sol.example/menu', 'https://sol.example/es/about']);
  });
});

describe('discoverSite: the pages of a website', () => {
  it('reads the sitemap robots.txt names, honours its rules, keeps to the site and the limit', async () => {
    const local = site({
      '/robots.txt': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end(`User-agent: *\nDisallow: /private/\n\nSitemap: ${base}/sitemap-index.xml\n`);
      },
      '/sitemap-index.xml': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        res.end(
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/pages.xml</loc></sitemap></sitemapindex>`,
        );
      },
      '/pages.xml': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        const urls = [
          '/',
          '/menu',
          '/about',
          '/private/staff',
          '/brochure.pdf',
          'https://elsewhere.example/x',
          '/menu#top',
        ];
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
            .map((u) => `<url><loc>${u.startsWith('http') ? u : base + u}</loc></url>`)
            .join('')}</urlset>`,
        );
      },
    });
    const base = await local.start();
    try {
      const found = await discoverSite(`${base}/`, fetcher(), { limit: 10 });
      expect(found).toEqual({
        start: `${base}/`,
        via: 'sitemap',
        pages: [`${base}/`, `${base}/menu`, `${base}/about`],
        truncated: false,
        robots: 'read',
      });
      const limited = await discoverSite(`${base}/`, fetcher(), { limit: 2 });
      expect(limited).toMatchObject({ pages: [`${base}/`, `${base}/menu`], truncated: true });
    } finally {
      await local.stop();
    }
  });

  it('without a sitemap, follows same-site links from the page given, breadth first', async () => {
    const local = site({
      '/': page(
        '<main><p>Welcome</p><a href="/menu">Our menu</a><a href="/contact">Contact</a><a href="https://x.example/">Out</a></main>',
      ),
      '/menu': page('<main><p>Bread</p><a href="/menu/cakes">Cakes</a></main>'),
      '/menu/cakes': page('<main><p>Cakes</p></main>'),
      '/contact': page('<main><p>Call us</p></main>'),
      '/legal': page('<main><p>Legal</p></main>'),
      '/robots.txt': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('User-agent: SparksBot\nDisallow: /legal\n');
      },
    });
    const base = await local.start();
    try {
      const found = await discoverSite(`${base}/`, fetcher(), { limit: 10 });
      expect(found.via).toBe('links');
      expect(found.pages).toEqual([`${base}/`, `${base}/menu`, `${base}/contact`, `${base}/menu/cakes`]);
      expect(local.hits).not.toContain('/legal');
    } finally {
      await local.stop();
    }
  });

  it('reads nothing while robots.txt cannot be read (a 5xx), and everything when there is none (a 404)', async () => {
    const down = site({
      '/robots.txt': (_req, res) => {
        res.writeHead(503);
        res.end();
      },
      '/': page('<main><p>Welcome</p></main>'),
    });
    const base = await down.start();
    try {
      expect(await discoverSite(`${base}/`, fetcher(), { limit: 10 })).toMatchObject({
        pages: [],
        robots: 'unreadable',
      });
      expect(down.hits).toEqual(['/robots.txt']);
    } finally {
      await down.stop();
    }
    const none = site({ '/': page('<main><p>Welcome</p></main>') });
    const open = await none.start();
    try {
      expect(await discoverSite(`${open}/`, fetcher(), { limit: 10 })).toMatchObject({
        pages: [`${open}/`],
        robots: 'none',
        via: 'links',
      });
    } finally {
      await none.stop();
    }
  });

  it('reads a sitemap urlset and a sitemap index', () => {
    expect(
      readSitemap(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/x </loc></url></urlset>',
      ),
    ).toEqual({ pages: ['https://a.example/x'], sitemaps: [] });
    expect(readSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>')).toEqual({
      pages: [],
      sitemaps: ['https://a.example/s1.xml'],
    });
  });
});
