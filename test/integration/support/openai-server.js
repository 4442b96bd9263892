'use strict';
/**
 * A local server that speaks the OpenAI Chat Completions protocol (POST …/chat/completions, streamed as
 * SSE `chat.completion.chunk`s ending in `[DONE]`, or one `chat.completion` when `stream` is false), for
 * tests and benchmarks: no network, deterministic replies. CommonJS with a .d.ts beside it, so that the
 * TypeScript tests and the .mjs benchmarks (bench/) load the same module.
 *
 * Modes (setMode):
 * - `grounded` (default): composes its reply from the prompt. It reads the numbered passages (`[n] …`
 *   blocks) of the messages, picks the one sharing most words with the last user message and answers
 *   with its best sentence followed by `[n]`; when no passage shares a word it answers `none`
 *   (`[NONE]` by default). What it cites is exactly what it was given, so tests can check grounding.
 *   The builder's request for a Spark's instructions (its user message is the JSON object of the
 *   Spark's facts: name, tone, language, maybe business, description, goal, hours) is answered with
 *   `instructionsOf` those facts, so what the Spark stores can only come from what it sent.
 * - `reply`: the given text, streamed word by word (or `tokens` as given).
 * - `error`: an HTTP error with an OpenAI error body. `hang`: accepts and never answers.
 *
 * `delayMs` waits before each streamed chunk (and before a non-streamed answer). `latencyMs` waits once
 * per completion before anything is sent (a model's time to its first token), whatever the reply's length:
 * with it, a completion takes a fixed time spent waiting, not computing (bench/scale.mjs).
 */
const http = require('node:http');

const STOP = new Set(
  'the a an of in on at to for and or is are was were be by with from that this what which who how when where why does do did it its as than de la el los las un una unos unas en y o que es son por con para del al se su sus lo como cual cuál qué quién cuándo dónde cómo'.split(
    ' ',
  ),
);
const words = (text) =>
  new Set(
    text
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && !STOP.has(w)),
  );
const shared = (a, b) => [...a].filter((w) => b.has(w)).length;

/** The numbered passages of a prompt: lines starting `[n]`, each running to the next one. */
function passagesOf(text) {
  const out = [];
  const re = /^\[(\d+)\][^\n]*\n?/gm;
  const marks = [...text.matchAll(re)];
  marks.forEach((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1].index : text.length;
    out.push({ n: Number(m[1]), text: text.slice(m.index + m[0].length, end).trim() });
  });
  return out;
}

/** The reply of the `grounded` mode. */
function ground(messages, none) {
  const question = [...messages].reverse().find((m) => m.role === 'user');
  const q = words(question ? String(question.content) : '');
  const passages = messages.flatMap((m) => (m.role === 'user' && m === question ? [] : passagesOf(String(m.content))));
  let best;
  for (const p of passages) {
    const score = shared(q, words(p.text));
    if (score > 0 && (!best || score > best.score)) best = { ...p, score };
  }
  if (!best) return none;
  const sentences = best.text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  let sentence = sentences[0] ?? best.text;
  let top = -1;
  for (const s of sentences) {
    const score = shared(q, words(s));
    if (score > top) [sentence, top] = [s, score];
  }
  return `${sentence} [${best.n}]`;
}

/** The facts of a request for a Spark's instructions (the last user message, a JSON object), if it is one. */
function factsOf(messages) {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  try {
    const facts = JSON.parse(String(last ? last.content : ''));
    const text = (v) => typeof v === 'string';
    return facts && text(facts.name) && text(facts.tone) && text(facts.language) ? facts : undefined;
  } catch {
    return undefined;
  }
}

/** The instructions `grounded` writes from a Spark's facts: one paragraph, only what it was given. */
function instructionsOf(facts) {
  return [
    `Welcome visitors to ${facts.name}${facts.business ? ` (${facts.business})` : ''}${facts.description ? `: ${facts.description}` : ''}.`,
    facts.goal ? `Your job: ${facts.goal}.` : '',
    facts.hours ? `Opening hours to give when asked: ${facts.hours}.` : '',
    `Keep every reply ${facts.tone}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Word by word, each token keeping the space before it ("a", " b", " c"). */
const tokenize = (text) => text.match(/\s*\S+/g) ?? [text];

/**
 * Starts the server on 127.0.0.1 (a free port unless `port` is given). `url` is the base URL to give
 * the client (`…/v1`); `requests` holds every request body received, in order.
 */
async function startOpenAiServer(options = {}) {
  let mode = options.mode ?? { kind: 'grounded' };
  let delayMs = options.delayMs ?? 0;
  const latencyMs = options.latencyMs ?? 0;
  const none = options.none ?? '[NONE]';
  const requests = [];
  const open = new Set();
  const server = http.createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    let body = '';
    req.on('data', (d) => (body += d.toString()));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || !req.url || !req.url.endsWith('/chat/completions')) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
          return;
        }
        let request;
        try {
          request = JSON.parse(body);
        } catch {
          res.writeHead(400, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'invalid JSON', type: 'invalid_request_error' } }));
          return;
        }
        requests.push(request);
        const current = mode;
        if (current.kind === 'error') {
          res.writeHead(current.status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }));
          return;
        }
        if (current.kind === 'hang') return;
        if (latencyMs > 0) {
          await sleep(latencyMs);
          if (res.destroyed) return;
        }
        const messages = Array.isArray(request.messages) ? request.messages : [];
        const facts = current.kind === 'grounded' ? factsOf(messages) : undefined;
        const tokens =
          current.kind === 'reply'
            ? (current.tokens ?? tokenize(current.content ?? ''))
            : tokenize(facts ? instructionsOf(facts) : ground(messages, none));
        const id = `chatcmpl-${requests.length}`;
        const model = String(request.model ?? 'test');
        if (!request.stream) {
          await sleep(delayMs);
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(
            JSON.stringify({
              id,
              object: 'chat.completion',
              created: 0,
              model,
              choices: [{ index: 0, message: { role: 'assistant', content: tokens.join('') }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 0, completion_tokens: tokens.length, total_tokens: tokens.length },
            }),
          );
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        const chunk = (delta, finish) =>
          `data: ${JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created: 0,
            model,
            choices: [{ index: 0, delta, finish_reason: finish }],
          })}\n\n`;
        res.write(chunk({ role: 'assistant', content: '' }, null));
        for (const token of tokens) {
          await sleep(delayMs);
          if (res.destroyed) return;
          res.write(chunk({ content: token }, null));
        }
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  await new Promise((r) => server.listen(options.port ?? 0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    setMode: (m) => {
      mode = m;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise((r) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

module.exports = { startOpenAiServer, instructionsOf };
