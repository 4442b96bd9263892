import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { documentTitle } from '@sparks/contracts';
import { makePdf } from '../integration/fixtures/pdfs';
import {
  codeIn,
  createUser,
  eventually,
  PASSWORD,
  startApp,
  uniqueEmail,
  waitForMail,
  type SignedUser,
  type TestApp,
} from '../integration/harness';
import { describeResponse, probe, type Tally } from './scoreboard';
import { call } from './world';

/**
 * Hostile markdown: names and texts that users control, full of HTML, scripts, `javascript:` links
 * and external images, sent through every place where the server writes them into an assistant's
 * markdown (greetings, the builder's messages, document messages, quoted passages and their source
 * lines). Every stored assistant message is parsed as the SPA parses it (micromark with GFM): it
 * must hold no raw HTML, no image, no reference definition and no link but http(s) or mailto, and
 * it must still show the hostile text as typed. The browser-level check is e2e/hostile-markdown.spec.ts.
 */
const TAG = '<img src=x onerror=alert(1)>';
const LINK = '[click](javascript:alert(2))';
const IMAGE = '![pixel](https://attacker.invalid/p.png)';
const SCRIPT = '<script>alert(3)</script>';
const AUTOLINK = '<javascript:alert(4)>';
/** A Spark name (at most 120 characters). */
const NAME = `${TAG}${LINK}${IMAGE}`;
/** A first name (at most 80). */
const FIRST = `${SCRIPT}${LINK}`;
/** A greeting (at most 1000), line by line: headings, tables, reference definitions, HTML blocks. */
const GREETING = [
  `# ${TAG}`,
  `${SCRIPT} ${AUTOLINK} **bold** _it_ \`code\``,
  `${LINK} ${IMAGE} [ref][r]`,
  '| a | b |',
  '|---|---|',
  '[r]: javascript:alert(5)',
  '<iframe src="https://attacker.invalid/"></iframe>',
  '1. one',
  '- two',
].join('\n');
const DOC_NAME = `${TAG}[d](javascript:alert(6)).pdf`;
const DOC_TITLE = `*Menu* ${LINK} <script>alert(7)</script> ${IMAGE}`;
/** What the document says (pdftotext reads it back as one line). */
const PDF_LINE = `Opening hours ${TAG} ${LINK} ${IMAGE} from nine to five`;

interface Tree {
  nodes: Array<{ type: string; url: string | null; value: string | null }>;
  text: string;
}

/** Parses markdown as the SPA does (see markdown-tree.mjs). */
function parse(markdowns: string[]): Tree[] {
  const run = spawnSync(process.execPath, [path.join(__dirname, 'markdown-tree.mjs')], {
    input: JSON.stringify(markdowns),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`markdown-tree.mjs failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Tree[];
}

/** Text compared without its whitespace: a PDF's lines wrap where its layout says, not where the text did. */
const squash = (s: string) => s.replace(/\s+/g, '');

interface Message {
  type: string;
  data: { content: string; type?: string };
}

/**
 * Checks every assistant text of a conversation: nothing it holds becomes markup, and `expected`
 * (the hostile texts it must echo) reads as typed in at least one of them.
 */
function checkMessages(tally: Tally, label: string, messages: Message[], expected: string[]): void {
  const ai = messages.filter((m) => m.type === 'ai' && typeof m.data.content === 'string' && m.data.content !== '');
  tally.check(`${label}: the assistant answered`, ai.length > 0, JSON.stringify(messages).slice(0, 300));
  const trees = parse(ai.map((m) => m.data.content));
  trees.forEach((tree, i) => {
    const unsafe = tree.nodes.filter(
      (n) =>
        ['html', 'image', 'imageReference', 'definition', 'linkReference'].includes(n.type) ||
        (n.type === 'link' && !/^(https?:|mailto:)/i.test(n.url ?? '')),
    );
    tally.check(
      `${label}: message ${i + 1} has no HTML, image or unsafe link`,
      unsafe.length === 0,
      `${JSON.stringify(unsafe)} in ${JSON.stringify(ai[i].data.content)}`,
    );
  });
  const shown = trees.map((tr) => squash(tr.text));
  for (const text of expected) {
    tally.check(
      `${label}: shows ${JSON.stringify(text.slice(0, 40))}… as typed`,
      shown.some((s) => s.includes(squash(text))),
      JSON.stringify(ai.map((m) => m.data.content)).slice(0, 600),
    );
  }
}

describe('hostile markdown in what the assistants write', () => {
  let t: TestApp;
  let base: string;
  let u: SignedUser;
  beforeAll(async () => {
    t = await startApp();
    base = await t.url();
    u = await createUser(t, { tag: 'markdown' });
  });
  afterAll(() => t.close());

  const json = async (method: string, p: string, body?: unknown, user = u) => {
    const got = await call(base, { method, path: p, token: user.access, json: body });
    if (got.status >= 300) throw new Error(`${method} ${p}: ${got.status} ${got.text.slice(0, 200)}`);
    return (got.json as { data: Record<string, unknown> }).data;
  };
  const history = async (conversationId: string, user = u) =>
    (await json('GET', `/api/v1/llm/chat-history/${conversationId}`, undefined, user)).messages as Message[];

  // The chat home's welcome bubble greets by name in the browser, as text (issue 18 item 13); the main
  // assistant's own messages no longer name the user. They must stay free of markup all the same.
  probe('a first name and an e-mail near the main assistant: its messages stay plain', async (tally) => {
    await json('PATCH', '/api/v1/account/profile', { firstname: FIRST });
    const chat = await call(base, {
      method: 'GET',
      path: '/api/v1/spark-sys/main/chat',
      token: u.access,
      query: { 'input.text': 'inicio' },
    });
    tally.status('the main assistant answers', chat, [200]);
    const sessionId = (
      JSON.parse(
        chat.text
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6),
      ) as { sessionId: string }
    ).sessionId;
    checkMessages(tally, 'main assistant of a user with a hostile first name', await history(sessionId), []);

    // An address with markup in it: refused at sign-up as an address, or greeted as typed.
    const hostileEmail = `x${TAG.replace(/ /g, '')}${uniqueEmail('md')}`;
    const res = await t
      .http()
      .post('/api/v1/auth/register')
      .send({ username: hostileEmail, password: PASSWORD, config: { language: 'en' } });
    if (res.status !== 201) {
      tally.check(
        'an e-mail address with markup is refused as an address',
        res.status === 400 && ['INVALID_EMAIL', 'INVALID_DOMAIN'].includes(res.body.errors?.[0]?.code as string),
        describeResponse(res),
      );
      return;
    }
    const username = hostileEmail.toLowerCase();
    const code = codeIn(await waitForMail(t, username));
    const verified = await t
      .http()
      .post('/api/v1/auth/verify-code')
      .send({ username, code, password: PASSWORD })
      .expect(200);
    const token = verified.body.data.access_token as string;
    const greeting = await call(base, {
      method: 'GET',
      path: '/api/v1/spark-sys/main/chat',
      token,
      query: { 'input.text': 'inicio' },
    });
    const session = (
      JSON.parse(
        greeting.text
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6),
      ) as { sessionId: string }
    ).sessionId;
    const got = await call(base, { method: 'GET', path: `/api/v1/llm/chat-history/${session}`, token });
    checkMessages(
      tally,
      'main assistant of a user with an address full of markup',
      (got.json as { data: { messages: Message[] } }).data.messages,
      [],
    );
  });

  probe('a Spark’s name in the builder’s messages, and a name typed into the builder', async (tally) => {
    const spark = await json('POST', '/api/v1/sparks', { name: NAME, options: { language: 'en' } });
    const sparkId = spark._id as string;
    const first = await json('POST', `/api/v1/sparks/${sparkId}/messages`, { input: { text: 'inicio' } });
    const sessionId = first.sessionId as string;
    checkMessages(tally, 'builder intro with a hostile Spark name', await history(sessionId), [NAME]);
    const typed = `${SCRIPT}${IMAGE}`;
    await json('POST', `/api/v1/sparks/${sparkId}/messages`, { input: { text: typed }, sessionId });
    checkMessages(tally, 'builder confirming a hostile name typed in the chat', await history(sessionId), [typed]);
    const stored = await json('GET', `/api/v1/sparks/${sparkId}`);
    tally.check(
      'the typed name is stored as typed (escaping is for markdown only)',
      stored.name === typed,
      JSON.stringify(stored.name),
    );
  });

  probe(
    'a greeting, a document’s name and its text in a test chat',
    async (tally) => {
      const spark = await json('POST', '/api/v1/sparks', {
        name: 'Harbour',
        options: { initialMessage: GREETING, language: 'en' },
      });
      const sparkId = spark._id as string;
      const builder = await json('GET', `/api/v1/sparks/${sparkId}/conversation`);
      const conversationId = builder.sessionId as string;
      const pdf = await makePdf([{ heading: 'Hours', paragraphs: [[PDF_LINE]] }]);
      const up = await call(base, {
        method: 'POST',
        path: '/api/v1/bucket',
        token: u.access,
        form: { fields: { sparkId, conversationId, name: DOC_NAME }, file: pdf, fileName: 'hours.pdf' },
      });
      tally.status('the document is accepted', up, [201]);
      const documentId = (up.json as { data: { _id: string } }).data._id;
      await eventually(
        async () => (await json('GET', `/api/v1/sparks/${sparkId}/documents/${documentId}`)).status === 'completed',
        30_000,
      );
      await eventually(
        async () => (await history(conversationId)).some((m) => m.type === 'ai' && m.data.type === 'document'),
        15_000,
      );
      checkMessages(
        tally,
        'the document message with a hostile name',
        (await history(conversationId)).filter((m) => m.data.type === 'document'),
        [DOC_NAME],
      );

      const test = await json('POST', `/api/v1/sparks/${sparkId}/tests`, { name: 'Probe' });
      const testId = test._id as string;
      const greeted = await json('POST', `/api/v1/sparks/${sparkId}/chat/${testId}`, { input: { text: 'hello' } });
      const testConversation = greeted.conversationId as string;
      checkMessages(tally, 'a hostile greeting', await history(testConversation), GREETING.split('\n'));
      const answer = await call(base, {
        method: 'POST',
        path: `/api/v1/sparks/${sparkId}/chat/${testId}`,
        token: u.access,
        json: { input: { text: 'What are the opening hours?' }, conversationId: testConversation },
      });
      tally.status('the question is answered', answer, [200, 201]);
      const quoted = (await history(testConversation)).slice(-1);
      // Customers read the file name without its extension (issue 34 item 10).
      checkMessages(tally, 'a passage quoted with hostile text and source', quoted, [
        `${TAG} ${LINK} ${IMAGE}`,
        documentTitle({ name: DOC_NAME }),
      ]);

      // A hostile title given by the owner is cited as typed too.
      const retitled = await call(base, {
        method: 'PATCH',
        path: `/api/v1/sparks/${sparkId}/documents/${documentId}`,
        token: u.access,
        json: { title: DOC_TITLE },
      });
      tally.status('the hostile title is accepted as text', retitled, [200]);
      const again = await call(base, {
        method: 'POST',
        path: `/api/v1/sparks/${sparkId}/chat/${testId}`,
        token: u.access,
        json: { input: { text: 'When do you open?' }, conversationId: testConversation },
      });
      tally.status('the question is answered again', again, [200, 201]);
      checkMessages(tally, 'a passage cited by a hostile title', (await history(testConversation)).slice(-1), [
        DOC_TITLE,
      ]);
    },
    90_000,
  );

  probe('objectives titles carry the Spark’s name as plain data, not markdown', async (tally) => {
    const spark = await json('POST', '/api/v1/sparks', { name: NAME });
    const res = await call(base, { method: 'GET', path: `/api/v1/objectives/${spark._id as string}`, token: u.access });
    tally.check(
      'the panel title is the name as typed',
      (res.json as { meta?: { title?: string } }).meta?.title === NAME,
      describeResponse(res),
    );
  });
});
