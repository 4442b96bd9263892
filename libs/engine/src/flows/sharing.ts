/**
 * The builder chat's browser over the Spark's SharePoint or OneDrive (issue 20): sites, their document libraries,
 * folders and files, one level at a time with the chat's options; a file picked is imported (queued) and read as an
 * upload is. What a button sends is the index of a line of the page shown (`open:3`, `pick:3`), read back from the
 * conversation's own state: no Graph id ever comes from what the user typed.
 */

import { z } from 'zod';
import type { Emit } from './widgets';
import { inEveryLanguage } from './localized';
import type { SharingEntry, SharingPlace, SharingPorts, SharingService, SharingWhere } from './ports';
import { label, msg, say, type FlowTextKey } from './texts';
import type { Lang } from './types';
import { matchChoice } from './understand';
import { isSkip, yesNo } from './understanding';

/** Lines of a level shown at once; "More" shows the next ones (docs/decisions.md). */
export const BROWSE_PAGE_SIZE = 20;

const placeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sites') }),
  z.object({ kind: z.literal('site'), siteId: z.string() }),
  z.object({ kind: z.literal('onedrive') }),
  z.object({ kind: z.literal('folder'), driveId: z.string(), itemId: z.string().optional() }),
]) satisfies z.ZodType<SharingPlace>;

const entrySchema = z.object({
  name: z.string(),
  kind: z.enum(['open', 'pick', 'unreadable']),
  place: placeSchema.optional(),
  file: z.object({ driveId: z.string(), itemId: z.string() }).optional(),
  reason: z.enum(['type', 'size']).optional(),
}) satisfies z.ZodType<SharingEntry>;

const trailStep = z.object({ place: placeSchema, name: z.string() });
type TrailStep = z.infer<typeof trailStep>;

/** What the conversation keeps while browsing (the dialog's state, checked when read back). */
export const browseStateSchema = z.object({
  service: z.enum(['sharepoint', 'onedrive']),
  /** From the start (the sites, or the OneDrive) down to the place shown. */
  trail: z.array(trailStep),
  page: z.number().int().nonnegative(),
  /** The lines of the shown page that can be used: their index is what the buttons send. */
  shown: z.array(entrySchema),
  /** The last answer was a pick: "add another" and "done" are offered. */
  picked: z.boolean().optional(),
});
export type BrowseState = z.infer<typeof browseStateSchema>;

export interface BrowserHost {
  lang: Lang;
  text(content: string): void;
  action: Emit;
  /** The browser's state kept by the conversation, and keeping it (undefined: browsing ends). */
  load(): BrowseState | undefined;
  store(state: BrowseState | undefined): void;
}

const START: Record<SharingService, TrailStep> = {
  sharepoint: { place: { kind: 'sites' }, name: 'Sites' },
  onedrive: { place: { kind: 'onedrive' }, name: 'My files' },
};

export class SharingBrowser {
  constructor(
    private readonly host: BrowserHost,
    private readonly ports: SharingPorts | undefined,
  ) {}

  private get lang(): Lang {
    return this.host.lang;
  }

  private say(key: FlowTextKey, vars: Record<string, string> = {}): void {
    this.host.text(say(this.lang, msg(key), vars));
  }

  private l(key: FlowTextKey, vars: Record<string, string> = {}, lang: Lang = this.lang): string {
    return label(lang, msg(key), vars);
  }

  get state(): BrowseState | undefined {
    return this.host.load();
  }

  private save(state: BrowseState | undefined): void {
    this.host.store(state);
  }

  /** "Add a document from SharePoint": checks the connection and shows where the files are. True when browsing. */
  async start(): Promise<boolean> {
    this.save(undefined);
    if (!this.ports) {
      this.say('sharingNotConfigured');
      return false;
    }
    const status = await this.ports.status();
    if (status.status !== 'ready') {
      const key: Record<typeof status.status, FlowTextKey> = {
        notConfigured: 'sharingNotConfigured',
        notAllowed: 'sharingNotAllowed',
        notConnected: 'sharingNotConnected',
      };
      this.say(key[status.status]);
      return false;
    }
    return this.show({ service: status.service, trail: [START[status.service]], page: 0, shown: [] });
  }

  /** Lists the last place of the trail at `state.page`; false (browsing ends) when Microsoft did not answer. */
  private async show(state: BrowseState): Promise<boolean> {
    const here = state.trail[state.trail.length - 1];
    const listed = await this.ports!.list(here.place);
    if ('error' in listed) {
      this.say(listed.error === 'reconnect' ? 'sharingReconnect' : 'sharingFailed');
      this.save(undefined);
      return false;
    }
    const all = listed.entries;
    const pages = Math.max(1, Math.ceil(all.length / BROWSE_PAGE_SIZE));
    const page = Math.min(Math.max(0, state.page), pages - 1);
    const slice = all.slice(page * BROWSE_PAGE_SIZE, (page + 1) * BROWSE_PAGE_SIZE);
    const shown = slice.filter((e) => e.kind !== 'unreadable');
    const unreadable = slice.filter((e) => e.kind === 'unreadable');
    const where = state.trail.map((s) => s.name).join('/');
    const kind = here.place.kind;
    if (all.length === 0) this.say(kind === 'sites' ? 'browseNoSites' : 'browseEmpty', { where });
    else if (kind === 'sites') this.say('browseSites');
    else if (kind === 'site') this.say('browseLibraries', { site: here.name });
    else {
      this.say(pages > 1 ? 'browseFolderPaged' : 'browseFolder', {
        where,
        from: String(page * BROWSE_PAGE_SIZE + 1),
        to: String(page * BROWSE_PAGE_SIZE + slice.length),
        total: String(all.length),
      });
    }
    if (unreadable.length > 0) {
      inEveryLanguage(this.host.action, this.lang, (emit, lang) =>
        emit('card', {
          title: this.l('browseUnreadableTitle', {}, lang),
          info: unreadable.map((e) => ({
            label: e.name,
            value: this.l(e.reason === 'size' ? 'browseUnreadableSize' : 'browseUnreadableType', {}, lang),
          })),
        }),
      );
    }
    inEveryLanguage(this.host.action, this.lang, (emit, lang) => {
      const options = shown.map((e, i) => ({
        label:
          e.kind === 'open' && (kind === 'folder' || kind === 'onedrive')
            ? this.l('browseFolderLabel', { name: e.name }, lang)
            : e.name,
        value: `${e.kind}:${i}`,
      }));
      if (page + 1 < pages) options.push({ label: this.l('browseMore', {}, lang), value: 'more' });
      if (state.trail.length > 1) options.push({ label: this.l('browseUp', {}, lang), value: 'up' });
      options.push({ label: this.l('browseDone', {}, lang), value: 'done' });
      emit('options', { options });
    });
    this.save({ ...state, page, shown, picked: false });
    return true;
  }

  /** The choices of the shown page, to read a typed or clicked answer. */
  private choices(state: BrowseState) {
    const own = (key: FlowTextKey) => msg(key);
    return [
      ...state.shown.map((e, i) => ({
        value: `${e.kind}:${i}`,
        label: { es: e.name, en: e.name },
        synonyms:
          e.kind === 'open'
            ? [
                label('es', msg('browseFolderLabel'), { name: e.name }),
                label('en', msg('browseFolderLabel'), { name: e.name }),
              ]
            : [],
      })),
      { value: 'more', label: own('browseMore') },
      { value: 'up', label: own('browseUp'), synonyms: ['back', 'atras', 'volver', 'subir', 'up'] },
      { value: 'done', label: own('browseDone'), synonyms: ['done', 'terminar', 'listo', 'cancel', 'cancelar'] },
      { value: 'another', label: own('browseAnother'), synonyms: ['another', 'otro', 'add another', 'anadir otro'] },
    ];
  }

  /**
   * A message while browsing. True when it was an answer to the browser; false when it was something else (the
   * browsing ends and the message is read as usual).
   */
  async answer(text: string): Promise<'handled' | 'ended' | 'other'> {
    const state = this.state;
    if (!state || !this.ports) return 'other';
    const choice = matchChoice(text, this.choices(state));
    const value = choice?.value ?? (isSkip(text) || yesNo(text) === 'no' ? 'done' : undefined);
    if (!value) {
      // A line's value that is not on the page (typed, or an old page): said so, and the page again.
      if (/^(open|pick):/i.test(text.trim())) {
        this.say('browseNotShown');
        await this.show({ ...state, picked: false });
        return 'handled';
      }
      this.save(undefined);
      return 'other';
    }
    if (value === 'done') {
      this.save(undefined);
      this.say('browseClosed');
      return 'ended';
    }
    if (value === 'more') return this.handled(this.show({ ...state, page: state.page + 1 }));
    if (value === 'another') return this.handled(this.show(state));
    if (value === 'up') {
      const trail = state.trail.length > 1 ? state.trail.slice(0, -1) : state.trail;
      return this.handled(this.show({ ...state, trail, page: 0 }));
    }
    const [kind, index] = value.split(':');
    const entry = state.shown[Number(index)];
    if (!entry) {
      this.say('browseNotShown');
      return this.handled(this.show(state));
    }
    if (kind === 'open' && entry.place) {
      return this.handled(
        this.show({ ...state, trail: [...state.trail, { place: entry.place, name: entry.name }], page: 0 }),
      );
    }
    if (kind === 'pick' && entry.file) return this.pick(state, entry);
    return 'other';
  }

  private async handled(shown: Promise<boolean>): Promise<'handled' | 'ended'> {
    return (await shown) ? 'handled' : 'ended';
  }

  /** The hidden start keyword while browsing (the web sends it when a picked file has been read): the offer again. */
  async again(): Promise<boolean> {
    const state = this.state;
    if (!state || !this.ports) return false;
    if (state.picked) {
      this.offerAnother(state);
      return true;
    }
    return this.show(state);
  }

  private offerAnother(state: BrowseState): void {
    inEveryLanguage(this.host.action, this.lang, (emit, lang) =>
      emit('buttons', {
        buttons: [
          { label: this.l('browseAnother', {}, lang), value: 'another' },
          { label: this.l('browseDone', {}, lang), value: 'done' },
        ],
      }),
    );
    this.save({ ...state, picked: true });
  }

  private async pick(state: BrowseState, entry: SharingEntry): Promise<'handled' | 'ended'> {
    const result = await this.ports!.importFile(entry.file!, whereOf(state, entry.name));
    switch (result.status) {
      case 'queued':
        this.say('browsePicked', { name: entry.name });
        this.host.action('event', { event: 'documentImport', name: entry.name });
        this.offerAnother(state);
        return 'handled';
      case 'limit':
        this.say('browseLimit', { limit: String(result.limit) });
        this.host.action('event', { event: 'documentLimit', limit: result.limit });
        this.save(undefined);
        return 'ended';
      case 'notFound':
        this.say('browseGone', { name: entry.name });
        return this.handled(this.show(state));
      case 'notConnected':
        this.say('sharingNotConnected');
        this.save(undefined);
        return 'ended';
    }
  }
}

/** The site, library and folders of the trail, for the path the import shows. */
export function whereOf(state: BrowseState, name: string): SharingWhere {
  const where: SharingWhere = { folders: [], name };
  for (const [i, step] of state.trail.entries()) {
    if (step.place.kind === 'site') where.site = step.name;
    else if (step.place.kind === 'folder') {
      if (step.place.itemId === undefined && state.trail[i - 1]?.place.kind === 'site') where.library = step.name;
      else where.folders.push(step.name);
    }
  }
  return where;
}
