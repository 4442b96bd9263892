#!/usr/bin/env node
// The website widget (issue 16): the loader's and the chat UI's gzipped size, the host page's
// main-thread time before the first click (Chromium trace: the time spent running the widget's own
// scripts, and the page's long tasks and blocking time beside the same page without the snippet), and the time from a visitor's send to the first streamed token at 1 and 200
// visitors at once (the public widget API, offline answer engine). See bench/README.md.
//
//   npm run build:web && npx tsc -b api/tsconfig.json worker/tsconfig.json
//   node bench/widget.mjs [--levels 1,200] [--rounds 3] [--trace-runs 5] [--json out.json]
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  ROOT,
  log,
  machine,
  ms,
  rootRequire,
  runBench,
  summarize,
  table,
  writeJsonIfAsked,
  onCleanup,
} from './lib/common.mjs';
import { call, startStack } from './lib/stack.mjs';

const argv = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const LEVELS = argv('levels', '1,200').split(',').map(Number);
const ROUNDS = Number(argv('rounds', 3));
const TRACE_RUNS = Number(argv('trace-runs', 5));
const BUDGET = { loaderKb: 3, chatKb: 60, hostMs: 50 };
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function gzKb(file) {
  const full = path.join(ROOT, 'web', 'dist', 'widget', file);
  if (!existsSync(full)) throw new Error(`${full} is missing: run npm run build:web first`);
  const raw = readFileSync(full);
  return { raw: raw.length / 1024, gzip: gzipSync(raw, { level: 9 }).length / 1024 };
}

function hostServer(body) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body><h1>A shop</h1><p>Text.</p>${body()}</body></html>`,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      onCleanup('close host page', () => new Promise((r) => server.close(() => r())));
      resolve(`http://127.0.0.1:${server.address().port}`);
    }),
  );
}

/** Total length of the union of [start, end] intervals (nested or overlapping events count once). */
function unionMs(intervals) {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total / 1000;
}

/** Trace events that run the widget's own scripts: compiling and running them, and their callbacks. */
const WIDGET_SCRIPT = /\/widget\.js|\/widget\/chat\.js/;
const SCRIPT_EVENTS = new Set(['EvaluateScript', 'FunctionCall', 'v8.compile', 'v8.compileModule', 'TimerFire']);
const scriptUrl = (e) => e.args?.data?.url ?? e.args?.data?.scriptName ?? e.args?.fileName ?? '';

// Long tasks (over 50 ms) as the page itself sees them, from the first byte (buffered), and the
// blocking time they add up to (each one's part over 50 ms, as Lighthouse's Total Blocking Time).
const LONG_TASKS = `window.__longTasks = [];
try { new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
  .observe({ type: 'longtask', buffered: true }); } catch {}`;

/**
 * One load of the host page (no click), traced: the renderer main thread's top-level tasks (all the
 * page's work), the part of it that ran the widget's scripts, and the page's long tasks.
 */
async function mainThread(browser, url, settle) {
  const page = await browser.newPage();
  await page.addInitScript(LONG_TASKS);
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'disabled-by-default-v8.compile'],
  });
  await page.goto(url, { waitUntil: 'load' });
  await settle(page);
  await page.waitForTimeout(1500);
  const longTasks = await page.evaluate(() => globalThis.__longTasks ?? []);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
  await page.close();
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  const scripts = onMain.filter((e) => SCRIPT_EVENTS.has(e.name) && WIDGET_SCRIPT.test(scriptUrl(e)));
  // The outermost of the widget's events (one nested in another is counted by it), for their thread time.
  const outermost = scripts.filter(
    (e) => !scripts.some((o) => o !== e && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && o.dur > e.dur),
  );
  return {
    total: onMain.filter((e) => e.name === 'RunTask').reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0),
    widget: unionMs(scripts.map((e) => [e.ts, e.ts + (e.dur ?? 0)])),
    // Thread (CPU) time, `tdur`: what the page's main thread itself spent, whatever else the machine
    // ran meanwhile (wall time grows when the thread waits for a core on a busy machine).
    totalCpu: onMain.filter((e) => e.name === 'RunTask').reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0) / 1000, 0),
    widgetCpu: outermost.reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0) / 1000, 0),
    longTasks: longTasks.length,
    blocking: longTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
  };
}

/** The envelope's first error code of a failed answer (`{ errors: [{ code }] }`), when it has one. */
function errorCode(body) {
  try {
    return JSON.parse(body).errors?.[0]?.code ?? '';
  } catch {
    return '';
  }
}

function post(base, urlPath, { origin, token, body, stream }) {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body ?? {});
    const out = { status: 0, firstToken: NaN, done: NaN, data: undefined, error: undefined };
    const t0 = performance.now();
    const req = http.request(
      `${base}${urlPath}`,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          Origin: origin,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        out.status = res.statusCode;
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          buffer += chunk;
          if (!stream) return;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const line = block.split('\n').find((l) => l.startsWith('data: '));
            if (!line) continue;
            const event = JSON.parse(line.slice(6));
            const now = performance.now() - t0;
            if (event.type === 'token' && Number.isNaN(out.firstToken)) out.firstToken = now;
            if (event.type === 'done') out.done = now;
            if (event.type === 'error') out.error = `event error ${event.code}`;
          }
        });
        res.on('end', () => {
          if (!stream) {
            try {
              out.data = JSON.parse(buffer).data;
            } catch {
              out.error = `HTTP ${res.statusCode}`;
            }
            if (res.statusCode >= 400) out.error = `HTTP ${res.statusCode} ${errorCode(buffer)}`.trim();
          } else if (res.statusCode !== 200) out.error = `HTTP ${res.statusCode} ${errorCode(buffer)}`.trim();
          else if (Number.isNaN(out.done) && !out.error) out.error = 'stream ended without done';
          resolve(out);
        });
      },
    );
    req.on('error', (err) => {
      out.error = err.message;
      resolve(out);
    });
    req.end(payload);
  });
}

runBench(async () => {
  const sizes = { loader: gzKb('widget.js'), chat: gzKb('chat.js') };
  log(`loader ${sizes.loader.gzip.toFixed(2)} KB gz, chat ${sizes.chat.gzip.toFixed(2)} KB gz`);

  const stack = await startStack('widget', {
    WIDGET_RATE_VISITOR_MAX: '100000',
    WIDGET_RATE_IP_MAX: '100000',
    WIDGET_RATE_TOKEN_MAX: '100000',
  });
  const [conv] = await stack.conversations(1);
  await stack.pool.query(
    'UPDATE tenants SET limit_deployments = 10 WHERE user_id = (SELECT user_id FROM sparks WHERE id = $1)',
    [conv.sparkId],
  );
  const published = await call(stack.base, 'POST', `/api/v1/sparks/${conv.sparkId}/deployment`, {
    token: conv.token,
    body: {},
  });
  const { token, snippet } = published.body.data;

  let withSnippet = true;
  const host = await hostServer(() =>
    withSnippet ? snippet.replace(/src="[^"]+"/, `src="${stack.base}/widget.js"`) : '',
  );
  await call(stack.base, 'POST', `/api/v1/sparks/${conv.sparkId}/deployment/origins`, {
    token: conv.token,
    body: { origin: host },
  });

  // — host page main-thread time (Chromium trace) —
  const { chromium } = rootRequire('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  onCleanup('close chromium', () => browser.close());
  const bare = [];
  const widget = [];
  for (let i = 0; i < TRACE_RUNS; i++) {
    withSnippet = false;
    bare.push(await mainThread(browser, host, async () => undefined));
    withSnippet = true;
    widget.push(
      await mainThread(browser, host, async (page) => {
        await page.locator('[data-sparks-widget]').waitFor({ state: 'attached' });
        await page.waitForFunction(() => !!globalThis.__sparksChat, null, { timeout: 10_000 });
      }),
    );
  }
  const pick = (runs, key) => runs.map((r) => r[key]);
  const extra = widget.map((w, i) => w.total - bare[i].total);
  log(
    `host main thread: bare ${pick(bare, 'total').map(ms).join(', ')}; with widget ${pick(widget, 'total').map(ms).join(', ')}; widget scripts ${pick(widget, 'widget').map(ms).join(', ')}`,
  );

  // — send → first token, N visitors at once —
  const api = `/api/v1/public/widgets/${token}`;
  const latency = [];
  for (const level of LEVELS) {
    const visitors = [];
    for (let i = 0; i < level; i++) {
      const session = await post(stack.base, `${api}/visitors`, { origin: host });
      const created = await post(stack.base, `${api}/conversations`, {
        origin: host,
        token: session.data.visitorToken,
      });
      visitors.push({ token: session.data.visitorToken, conversationId: created.data.conversationId });
    }
    const samples = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round = await Promise.all(
        visitors.map((v, i) =>
          post(stack.base, `${api}/conversations/${v.conversationId}/stream`, {
            origin: host,
            token: v.token,
            stream: true,
            body: {
              text: ['What is the return policy?', '¿Cuál es el horario?', 'How much does shipping cost?'][(i + r) % 3],
            },
          }),
        ),
      );
      samples.push(...round);
    }
    const ok = samples.filter((s) => !s.error);
    const errors = samples.length - ok.length;
    if (errors) {
      const kinds = new Map();
      for (const s of samples) if (s.error) kinds.set(s.error, (kinds.get(s.error) ?? 0) + 1);
      log(`level ${level}: ${errors} errors: ${[...kinds].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
    }
    latency.push({
      level,
      firstToken: summarize(ok.map((s) => s.firstToken)),
      done: summarize(ok.map((s) => s.done)),
      errors,
    });
  }

  const result = {
    machine: machine(),
    date: new Date().toISOString(),
    sizes,
    host: {
      bare,
      widget,
      extra: summarize(extra),
      scripts: summarize(pick(widget, 'widget')),
      scriptsCpu: summarize(pick(widget, 'widgetCpu')),
      bareScripts: summarize(pick(bare, 'widget')),
      longTasks: { bare: summarize(pick(bare, 'longTasks')), widget: summarize(pick(widget, 'longTasks')) },
      blocking: { bare: summarize(pick(bare, 'blocking')), widget: summarize(pick(widget, 'blocking')) },
    },
    latency,
  };
  writeJsonIfAsked(result);
  const m = result.machine;
  console.log(`## Website widget (bench/widget.mjs) — ${result.date.slice(0, 10)}

Machine: ${m.cpus} × ${m.cpuModel}, ${m.memory}, Node ${m.node}; offline answer engine.

| what | measured | budget |
|---|---:|---:|
| loader \`/widget.js\` (gzip -9) | ${sizes.loader.gzip.toFixed(2)} KB (${sizes.loader.raw.toFixed(1)} KB raw) | ≤ ${BUDGET.loaderKb} KB |
| chat UI \`/widget/chat.js\` (gzip -9) | ${sizes.chat.gzip.toFixed(2)} KB (${sizes.chat.raw.toFixed(1)} KB raw) | ≤ ${BUDGET.chatKb} KB |
| host main thread before the first click: the widget's own scripts (loader, config callback, launcher, chat UI loaded when idle; Chromium trace, median of ${TRACE_RUNS}), thread time | ${ms(result.host.scriptsCpu.p50)} ms (max ${ms(result.host.scriptsCpu.max)}) | ≤ ${BUDGET.hostMs} ms |
| the same, wall time (longer when the machine is busy) | ${ms(result.host.scripts.p50)} ms (max ${ms(result.host.scripts.max)}) | |

Host page main thread, side by side (from navigation to 1.5 s after the chat UI loaded, no click; median of ${TRACE_RUNS} loads each):

| | page without the snippet | same page with it |
|---|---:|---:|
| all main-thread tasks (RunTask on CrRendererMain), thread time, ms | ${ms(summarize(pick(bare, 'totalCpu')).p50)} | ${ms(summarize(pick(widget, 'totalCpu')).p50)} |
| the same, wall time, ms | ${ms(summarize(pick(bare, 'total')).p50)} | ${ms(summarize(pick(widget, 'total')).p50)} |
| of which the widget's scripts, thread time, ms | ${ms(summarize(pick(bare, 'widgetCpu')).p50)} | ${ms(result.host.scriptsCpu.p50)} |
| of which the widget's scripts (EvaluateScript, FunctionCall, compile, timers of \`widget.js\` and \`chat.js\`), wall time, ms | ${ms(result.host.bareScripts.p50)} | ${ms(result.host.scripts.p50)} |
| long tasks over 50 ms (PerformanceObserver \`longtask\`) | ${ms(result.host.longTasks.bare.p50)} | ${ms(result.host.longTasks.widget.p50)} |
| blocking time (each long task's part over 50 ms), ms | ${ms(result.host.blocking.bare.p50)} | ${ms(result.host.blocking.widget.p50)} |

Every load (wall time): all tasks without the snippet ${pick(bare, 'total').map(ms).join(', ')} ms; with it ${pick(widget, 'total').map(ms).join(', ')} ms; the widget's scripts ${pick(widget, 'widget').map(ms).join(', ')} ms (thread time ${pick(widget, 'widgetCpu').map(ms).join(', ')} ms).

Send → first streamed token (POST …/stream from an allowed origin, ${ROUNDS} rounds, all visitors at once):

${table(
  [
    ['visitors at once', (l) => String(l.level)],
    ['sends', (l) => String(l.firstToken.n)],
    ['p50 first token ms', (l) => ms(l.firstToken.p50)],
    ['p95 first token ms', (l) => ms(l.firstToken.p95)],
    ['p50 done ms', (l) => ms(l.done.p50)],
    ['p95 done ms', (l) => ms(l.done.p95)],
    ['errors', (l) => String(l.errors)],
  ],
  latency,
)}
`);
  // The size budgets are hard limits: over either, the run fails (the page-time one is machine-bound).
  if (sizes.loader.gzip > BUDGET.loaderKb || sizes.chat.gzip > BUDGET.chatKb) {
    throw new Error(`over budget: loader ${sizes.loader.gzip.toFixed(2)} KB, chat ${sizes.chat.gzip.toFixed(2)} KB`);
  }
});
