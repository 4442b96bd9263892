import { GraphError, type DriveItem, type GraphClient } from './graph-client';
import { importKindOf } from './paths';

/** What one round of a drive's delta query found. */
export interface DeltaRound {
  /** Each item Graph reported, by id; when Graph reports one twice, the last report counts. */
  items: Map<string, DriveItem>;
  /** Where the next round starts (already checked to be under the Graph base). */
  deltaLink: string;
  /**
   * True when the round enumerated the whole drive (the first round, or a resync after 410): an item not
   * reported at all is then gone, where a round from a delta link reports deletions with `deleted`.
   */
  full: boolean;
}

/** The delta query of a whole drive from scratch. */
export const driveDeltaPath = (driveId: string) => `/drives/${encodeURIComponent(driveId)}/root/delta`;

async function collect(client: GraphClient, start: string): Promise<{ items: Map<string, DriveItem>; link: string }> {
  const items = new Map<string, DriveItem>();
  let deltaLink: string | undefined;
  // `pages` checks every nextLink against the Graph base before requesting it.
  for await (const page of client.pages<DriveItem>(start)) {
    for (const item of page.value) if (item && typeof item.id === 'string') items.set(item.id, item);
    deltaLink = page['@odata.deltaLink'];
  }
  if (!deltaLink) throw new GraphError('failed', 'the delta query ended without a deltaLink');
  // Stored and followed next time: refused now if it points anywhere but the Graph base.
  client.resolve(deltaLink);
  return { items, link: deltaLink };
}

/**
 * One round of Graph's delta query for a drive: from `deltaLink` when there is one, every page followed to
 * the next deltaLink. A 410 (the link expired, `resyncRequired`) starts again from scratch: a full
 * enumeration. Nothing is answered until the last page arrived, so a round that fails halfway (a link
 * refused, throttled too long) changes nothing.
 */
export async function readDriveDelta(
  client: GraphClient,
  driveId: string,
  deltaLink: string | null | undefined,
): Promise<DeltaRound> {
  if (deltaLink) {
    try {
      const { items, link } = await collect(client, deltaLink);
      return { items, deltaLink: link, full: false };
    } catch (err) {
      if (!(err instanceof GraphError && err.kind === 'resyncRequired')) throw err;
    }
  }
  const { items, link } = await collect(client, driveDeltaPath(driveId));
  return { items, deltaLink: link, full: true };
}

/** Why a drive item will not be read: not a kind the import takes (`importKindOf`), or larger than uploads may be. */
export type SkipReason = 'UNSUPPORTED' | 'TOO_LARGE';

/** Why this version of a file cannot be read (undefined when it can); folders are not files. */
export function skipReason(item: DriveItem, maxBytes: number): SkipReason | undefined {
  if (!item.file || item.folder || !importKindOf(item.name)) return 'UNSUPPORTED';
  if (typeof item.size === 'number' && item.size > maxBytes) return 'TOO_LARGE';
  return undefined;
}
