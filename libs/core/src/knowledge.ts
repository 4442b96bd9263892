import { escapeMarkdown } from '@sparks/contracts';
import en from './locales/en/knowledge.json';
import type { Language } from './errors';
import { t } from './texts';

type Catalogue = typeof en;

/** Why a document could not be read: stored on the document, explained to its owner. */
export type IngestionErrorCode = keyof Catalogue['reasons'];
export const INGESTION_ERROR_CODES = Object.keys(en.reasons) as IngestionErrorCode[];

export function isIngestionErrorCode(value: unknown): value is IngestionErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(en.reasons, value);
}

/** The BCP 47 tag numbers and plurals are formatted with: data of each language, not a text (docs/decisions.md). */
const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-ES' };

function counted(language: Language, key: 'pages' | 'chars' | 'emptyPages', count: number): string {
  const form = new Intl.PluralRules(LOCALES[language]).select(count) === 'one' ? 'one' : 'other';
  return t(language, `knowledge.${key}_${form}`, { count: new Intl.NumberFormat(LOCALES[language]).format(count) });
}

/** The reason a document could not be read, in the owner's language. */
export function ingestionReason(
  language: Language,
  code: IngestionErrorCode,
  params: Record<string, string | number> = {},
): string {
  const formatted = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      typeof v === 'number' ? new Intl.NumberFormat(LOCALES[language]).format(v) : v,
    ]),
  );
  return t(language, `knowledge.reasons.${code}`, formatted);
}

/** The chat message posted when a document has been read (docs/product.md §4: the document message). */
export function documentReadMessage(
  language: Language,
  doc: { name: string; pages: number; chars: number; emptyPages: number; topics?: string[] },
): string {
  const read = t(language, 'knowledge.read', {
    name: escapeMarkdown(doc.name),
    pages: counted(language, 'pages', doc.pages),
    chars: counted(language, 'chars', doc.chars),
  });
  const topics = (doc.topics ?? []).filter(Boolean);
  const covers = topics.length
    ? ` ${t(language, 'knowledge.covers', { topics: topics.map((topic) => `“${escapeMarkdown(topic)}”`).join('; ') })}`
    : '';
  return (doc.emptyPages > 0 ? `${read} ${counted(language, 'emptyPages', doc.emptyPages)}` : read) + covers;
}

/**
 * What a document covers, said after reading it (issue 18 item 3): its first lines (a title, headings, the
 * first sentences), at most `max`, each cut to 70 characters, without repeats.
 */
export function documentTopics(passages: readonly string[], max = 3): string[] {
  const topics: string[] = [];
  for (const passage of passages) {
    for (const line of passage.split(/\n+|(?<=[.!?])\s+/)) {
      const text = line.replace(/\s+/g, ' ').trim();
      if (text.length < 3 || topics.some((t) => t.toLowerCase() === text.toLowerCase())) continue;
      topics.push(text.length > 70 ? `${text.slice(0, 69).trimEnd()}…` : text);
      if (topics.length >= max) return topics;
    }
  }
  return topics;
}

/** The chat message posted when a document could not be read. */
export function documentFailedMessage(
  language: Language,
  doc: { name: string; code: IngestionErrorCode; params?: Record<string, string | number> },
): string {
  return t(language, 'knowledge.failed', {
    name: escapeMarkdown(doc.name),
    reason: ingestionReason(language, doc.code, doc.params),
  });
}

/** Why the sync did not read a file's new version (issue 20), as `integration_items.skipped` stores it. */
export type SyncSkipReason = 'UNSUPPORTED' | 'TOO_LARGE';

/**
 * The chat message posted when the sync of a document-sharing connection skipped a followed file's new version
 * (the version read before stays), or removed a file deleted at the source. `service` is the brand shown
 * (SharePoint, OneDrive).
 */
export function documentSyncMessage(
  language: Language,
  doc: { name: string; service: string } & (
    { event: 'skipped'; reason: SyncSkipReason; maxMb: number } | { event: 'deleted' }
  ),
): string {
  return t(language, doc.event === 'deleted' ? 'knowledge.sync.deleted' : `knowledge.sync.${doc.reason}`, {
    name: escapeMarkdown(doc.name),
    service: doc.service,
    max: doc.event === 'skipped' ? new Intl.NumberFormat(LOCALES[language]).format(doc.maxMb) : '',
  });
}

/** Why a file of SharePoint or OneDrive was not imported (issue 20). */
export type ImportSkipCode = keyof Catalogue['imports']['skipReasons'];
export type DocumentSharingService = keyof Catalogue['imports']['sources'];

export function isImportSkipCode(value: unknown): value is ImportSkipCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(en.imports.skipReasons, value);
}

/** "from SharePoint: Sites/Bakery/Menu.pdf": where an imported document came from, in the reader's language. */
export function documentSourceText(language: Language, source: { service: DocumentSharingService; path: string }) {
  return t(language, 'knowledge.imports.source', {
    service: serviceName(language, source.service),
    path: source.path,
  });
}

/** The chat message posted when a picked or changed file was not imported, with the reason. */
export function importSkippedMessage(
  language: Language,
  v: { name: string; service: DocumentSharingService; code: ImportSkipCode; params?: Record<string, string | number> },
): string {
  const service = serviceName(language, v.service);
  const reason = t(language, `knowledge.imports.skipReasons.${v.code}`, { service, ...(v.params ?? {}) });
  return t(language, 'knowledge.imports.skipped', { name: escapeMarkdown(v.name), service, reason });
}

export type PickerTextKey = keyof Catalogue['picker'];

/** A text of the document-sharing file picker in the builder chat (issue 20), in the owner's language. */
export function pickerText(language: Language, key: PickerTextKey, params: Record<string, string | number> = {}) {
  return t(language, `knowledge.picker.${key}`, params);
}

/** The service's name as people read it (SharePoint, OneDrive). */
export function serviceName(language: Language, service: DocumentSharingService): string {
  return t(language, `knowledge.imports.sources.${service}`);
}

/** A text on one line, cut to `max` characters. */
function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A table cell of markdown: one line, its pipes escaped. */
const cell = (text: string): string => oneLine(text).replace(/\|/g, '\\|');

/**
 * The Spark's chat message when answer checks got another answer after its knowledge changed (issue 35 item 3): how
 * many, then each question in bold over its approved answer and the new one side by side (two columns, which a
 * phone's bubble still holds).
 */
export function checksChangedMessage(
  language: Language,
  changes: Array<{ question: string; expected: string; now: string }>,
): string {
  const form = new Intl.PluralRules(LOCALES[language]).select(changes.length) === 'one' ? 'one' : 'other';
  const head = `| ${t(language, 'knowledge.checks.approved')} | ${t(language, 'knowledge.checks.now')} |`;
  const blocks = changes.map((c) =>
    [
      `**${escapeMarkdown(oneLine(c.question))}**`,
      '',
      head,
      '| --- | --- |',
      `| ${cell(c.expected)} | ${cell(c.now)} |`,
    ].join('\n'),
  );
  return [t(language, `knowledge.checks.changed_${form}`, { count: String(changes.length) }), ...blocks].join('\n\n');
}

/** The label of the button under that message that opens the Spark's checks. */
export const checksReviewLabel = (language: Language): string => t(language, 'knowledge.checks.review');
