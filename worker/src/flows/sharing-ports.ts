import { MAX_UPLOAD_BYTES } from '@sparks/contracts';
import type { IntegrationConnectionRow, IntegrationsRepository } from '@sparks/db';
import type { DocumentIntake, PlanGates } from '@sparks/domain';
import type { SharingEntry, SharingPlace, SharingPorts, SharingService, SharingWhere } from '@sparks/engine';
import {
  displayPath,
  GraphError,
  importKindOf,
  OAuthError,
  type DriveItem,
  type GraphClient,
  type MicrosoftGraph,
} from '@sparks/knowledge';
import type { JobProducer } from '@sparks/queues';

/** The most lines of one place the browser reads (Graph's pages followed up to this). */
const BROWSE_MAX_ENTRIES = 500;

export interface SharingDeps {
  integrations: IntegrationsRepository;
  intake: DocumentIntake;
  plans: PlanGates;
  microsoft: MicrosoftGraph;
  producer: JobProducer;
}

const enc = encodeURIComponent;

/**
 * The builder chat's SharePoint / OneDrive browser on Microsoft Graph (issue 20), for one user's Spark: the connection
 * is the Spark's, and only when this user made it; every Graph call goes through its client (token refreshed, URLs
 * held to MICROSOFT_GRAPH_URL), so a place or a file is only ever read with that connection's own access.
 */
export class SharingPortsImpl implements SharingPorts {
  constructor(
    private readonly deps: SharingDeps,
    private readonly userId: string,
    private readonly sparkId: string,
  ) {}

  /** The Spark's Microsoft connection, when this user made it. */
  private async connection(): Promise<IntegrationConnectionRow | undefined> {
    const row = await this.deps.integrations.find(this.sparkId, 'microsoft');
    return row && row.userId === this.userId && row.sparkId === this.sparkId ? row : undefined;
  }

  async status(): Promise<
    { status: 'ready'; service: SharingService } | { status: 'notConfigured' | 'notAllowed' | 'notConnected' }
  > {
    if (!this.deps.microsoft.enabled) return { status: 'notConfigured' };
    if (!(await this.deps.plans.documentSharing(this.userId))) return { status: 'notAllowed' };
    const row = await this.connection();
    if (!row) return { status: 'notConnected' };
    return { status: 'ready', service: row.service === 'onedrive' ? 'onedrive' : 'sharepoint' };
  }

  async list(
    place: SharingPlace,
  ): Promise<{ entries: SharingEntry[] } | { error: 'reconnect' | 'failed' | 'notFound' }> {
    const row = await this.connection();
    if (!row || !this.deps.microsoft.enabled) return { error: 'reconnect' };
    const graph = this.deps.microsoft.graphFor(row);
    try {
      const entries = await this.read(graph, place);
      const order = (e: SharingEntry) => (e.kind === 'open' ? 0 : 1);
      return { entries: entries.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name)) };
    } catch (err) {
      return { error: errorOf(err) };
    }
  }

  private async read(graph: GraphClient, place: SharingPlace): Promise<SharingEntry[]> {
    switch (place.kind) {
      case 'sites':
        return collect(graph, '/sites?search=*', (s: { id: string; name?: string; displayName?: string }) => ({
          name: s.displayName || s.name || s.id,
          kind: 'open',
          place: { kind: 'site', siteId: s.id },
        }));
      case 'site':
        return collect(graph, `/sites/${enc(place.siteId)}/drives`, (d: { id: string; name?: string }) => ({
          name: d.name || d.id,
          kind: 'open',
          place: { kind: 'folder', driveId: d.id },
        }));
      case 'onedrive':
        return collect(graph, '/me/drive/root/children', (item: DriveItem) => entryOf(item, undefined));
      case 'folder': {
        const path = place.itemId
          ? `/drives/${enc(place.driveId)}/items/${enc(place.itemId)}/children`
          : `/drives/${enc(place.driveId)}/root/children`;
        return collect(graph, path, (item: DriveItem) => entryOf(item, place.driveId));
      }
    }
  }

  async importFile(
    file: { driveId: string; itemId: string },
    where: SharingWhere,
  ): Promise<{ status: 'queued' } | { status: 'limit'; limit: number } | { status: 'notConnected' | 'notFound' }> {
    const row = await this.connection();
    if (!row || !this.deps.microsoft.enabled) return { status: 'notConnected' };
    // Read with the connection's own access: a drive or item it cannot open is not imported.
    let item: DriveItem;
    try {
      item = await this.deps.microsoft
        .graphFor(row)
        .get<DriveItem>(`/drives/${enc(file.driveId)}/items/${enc(file.itemId)}`);
    } catch (err) {
      if (err instanceof GraphError && err.kind === 'notFound') return { status: 'notFound' };
      if (errorOf(err) === 'reconnect') return { status: 'notConnected' };
      throw err;
    }
    if (!item.file || item.folder || item.deleted) return { status: 'notFound' };
    const room = await this.deps.intake.room(this.userId, this.sparkId);
    if (room.used >= room.limit) return { status: 'limit', limit: room.limit };
    const key = { connectionId: row.id, driveId: file.driveId, itemId: file.itemId };
    await this.deps.integrations.notePicked({
      ...key,
      path: displayPath({ site: where.site, library: where.library }, where.folders, item.name),
    });
    await this.deps.producer.enqueue('integration.import', key);
    return { status: 'queued' };
  }
}

/** A drive item as a line of the browser: a folder opens, a PDF or .docx up to 10 MB is picked, others are listed. */
function entryOf(item: DriveItem, driveId: string | undefined): SharingEntry | undefined {
  const drive = item.parentReference?.driveId ?? driveId;
  if (item.deleted || !drive) return undefined;
  if (item.folder) return { name: item.name, kind: 'open', place: { kind: 'folder', driveId: drive, itemId: item.id } };
  if (!item.file) return undefined;
  if (!importKindOf(item.name)) return { name: item.name, kind: 'unreadable', reason: 'type' };
  if ((item.size ?? 0) > MAX_UPLOAD_BYTES) return { name: item.name, kind: 'unreadable', reason: 'size' };
  return { name: item.name, kind: 'pick', file: { driveId: drive, itemId: item.id } };
}

async function collect<T>(
  graph: GraphClient,
  path: string,
  map: (value: T) => SharingEntry | undefined,
): Promise<SharingEntry[]> {
  const out: SharingEntry[] = [];
  for await (const page of graph.pages<T>(path)) {
    for (const value of page.value) {
      const entry = map(value);
      if (entry) out.push(entry);
    }
    if (out.length >= BROWSE_MAX_ENTRIES) break;
  }
  return out.slice(0, BROWSE_MAX_ENTRIES);
}

function errorOf(err: unknown): 'reconnect' | 'failed' | 'notFound' {
  if (err instanceof OAuthError) return err.invalidGrant ? 'reconnect' : 'failed';
  if (err instanceof GraphError) {
    if (err.kind === 'unauthorized') return 'reconnect';
    if (err.kind === 'notFound') return 'notFound';
  }
  return 'failed';
}
