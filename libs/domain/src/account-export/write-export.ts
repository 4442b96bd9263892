import type { AccountDataRepository, ExportConversation } from '@sparks/db';
import { exportReadme } from './readme';
import type { ZipSink } from './zip-sink';

/** Reads a stored file's bytes (`FileStorage.get`); null when the store has no such file. */
export type ReadStoredFile = (key: string) => Promise<Buffer | null>;

/** Characters no file name may hold on some system: separators, wildcards, quotes and control characters. */
const unsafe = (ch: string) => ch.charCodeAt(0) < 32 || ch === '\u007f' || '/\\:*?"<>|'.includes(ch);

/** A name that is safe as one part of a path in any unzip tool: no separators or control characters, not too long. */
export function safeName(name: string, fallback: string): string {
  const replaced = [...name.normalize('NFC')].map((ch) => (unsafe(ch) ? '-' : ch)).join('');
  const cleaned = replaced.replace(/-{2,}/g, '-').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  return (cleaned.slice(0, 60).trim() || fallback).replace(/[. ]+$/, '') || fallback;
}

const two = (n: number) => String(n).padStart(2, '0');
const day = (d: unknown) => new Date(d as string).toISOString().slice(0, 10);
const short = (id: string) => id.replace(/-/g, '').slice(-8);

/** The folder of each Spark in the zip: `sparks/01-Bakery`, in the order they were made. */
function sparkFolders(sparks: Array<{ id: unknown; name: unknown }>): Map<string, string> {
  return new Map(
    sparks.map((s, i) => [String(s.id), `sparks/${two(i + 1)}-${safeName(String(s.name), 'spark')}`] as const),
  );
}

/** Where a conversation goes: under its Spark (builder, tests, visitors) or with the system assistants. */
function conversationPath(c: ExportConversation, folders: Map<string, string>, testNames: Map<string, string>): string {
  const folder = c.sparkId ? folders.get(c.sparkId) : undefined;
  const stamp = `${day(c.createdAt)}-${short(c.id)}`;
  if (folder && c.kind === 'builder') return `${folder}/conversations/builder-${stamp}.json`;
  if (folder && c.kind === 'test') {
    const test = safeName(testNames.get(c.testId ?? '') ?? 'test', 'test');
    return `${folder}/conversations/tests/${test}-${stamp}.json`;
  }
  if (folder && c.kind === 'widget') return `${folder}/conversations/visitors/${stamp}.json`;
  return `conversations/${safeName(c.systemName ?? c.kind, c.kind)}-${stamp}.json`;
}

/**
 * Writes everything of the account into `zip` with the layout its README describes (readme.ts), and ends the zip.
 * The same for the download built while the browser waits (the api) and the one the worker builds.
 */
export async function writeAccountExport(
  zip: ZipSink,
  data: AccountDataRepository,
  readFile: ReadStoredFile,
  userId: string,
  now: Date,
): Promise<void> {
  const profile = await data.profile(userId);
  if (!profile) throw new Error(`no user ${userId} to export`);
  const language = profile.language === 'es' ? 'es' : 'en';
  const email = String(profile.email);
  await zip.add('README.txt', exportReadme(language, { date: now.toISOString(), email }));
  await zip.json('account/profile.json', profile);
  await zip.json('account/objectives.json', await data.objectives(userId));
  await zip.json('account/emails.json', await data.emailsTo(email));

  const billing = await data.billing(userId);
  await zip.json('billing/subscription.json', billing.subscription);
  await zip.json('billing/checkouts.json', billing.checkouts);
  await zip.json('billing/credit-packs.json', billing.creditPacks);
  await zip.json('billing/usage.json', billing.usagePerPeriod);

  const sparks = await data.sparks(userId);
  const folders = sparkFolders(sparks as Array<{ id: unknown; name: unknown }>);
  const testNames = new Map<string, string>();
  for (const spark of sparks) {
    const id = String(spark.id);
    const folder = folders.get(id)!;
    await zip.json(`${folder}/spark.json`, spark);
    const options = (spark.options ?? {}) as { sysPrompt?: unknown };
    await zip.add(`${folder}/instructions.txt`, typeof options.sysPrompt === 'string' ? options.sysPrompt : '');
    await zip.json(`${folder}/deployment.json`, await data.deployment(id));
    await writeDocuments(zip, data, readFile, id, folder);
    await zip.json(`${folder}/owner-answers.json`, await data.ownerAnswers(id));
    const tests = await data.tests(id);
    for (const t of tests) testNames.set(String(t.id), String(t.name));
    await zip.json(`${folder}/tests.json`, tests);
    await zip.json(`${folder}/integrations.json`, await data.integrations(id));
  }

  for (const conversation of await data.conversations(userId)) {
    const messages = await data.messages(conversation.id);
    await zip.json(conversationPath(conversation, folders, testNames), {
      ...conversation,
      messages: messages.map((m) => {
        const { content, ...rest } = (m.data ?? {}) as { content?: unknown };
        return {
          id: m.id,
          type: m.type,
          createdAt: m.createdAt,
          content: content ?? '',
          ...(Object.keys(rest).length > 0 ? { data: rest } : {}),
        };
      }),
    });
  }
  await zip.end();
}

/** A Spark's documents: the list, each stored file as it was, and what was read of it page by page. */
async function writeDocuments(
  zip: ZipSink,
  data: AccountDataRepository,
  readFile: ReadStoredFile,
  sparkId: string,
  folder: string,
): Promise<void> {
  const listed: unknown[] = [];
  let n = 0;
  for (const doc of await data.documents(sparkId)) {
    // The owner's answers have no file: they are in owner-answers.json.
    if (doc.origin !== 'file') continue;
    n += 1;
    const name = `${two(n)}-${safeName(doc.name, 'document')}`;
    // A file the store no longer has (removed by hand, a lost disk) is said in the list; the rest is exported.
    const bytes = await readFile(doc.storageKey);
    const file = bytes ? `documents/files/${name}` : null;
    if (bytes) await zip.add(`${folder}/${file}`, bytes, { stored: true });
    const text = `documents/text/${name}.txt`;
    const passages = await data.documentText(doc.id);
    let lastPage = 0;
    const lines: string[] = [];
    for (const p of passages) {
      if (p.page !== lastPage) {
        lines.push(`${lines.length > 0 ? '\n' : ''}--- ${p.page} ---`);
        lastPage = p.page;
      }
      lines.push(p.content);
    }
    await zip.add(`${folder}/${text}`, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    const { storageKey: _key, ...row } = doc;
    listed.push({ ...row, file, text });
  }
  await zip.json(`${folder}/documents/documents.json`, listed);
}
