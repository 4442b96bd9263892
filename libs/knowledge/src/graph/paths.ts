import { kindOfName } from '../files/formats';
import type { DocumentFileKind } from '../storage/storage';
import type { DriveItem } from './graph-client';

/** The library every SharePoint site has: its name is left out of the paths shown to people. */
const DEFAULT_LIBRARIES = new Set(['documents', 'shared documents', 'documentos', 'documentos compartidos']);

/** The folders of an item's parent from Graph's `parentReference.path` (`/drives/{id}/root:/A/B` → `[A, B]`). */
export function parentFolders(item: Pick<DriveItem, 'parentReference'>): string[] {
  const path = item.parentReference?.path ?? '';
  const at = path.indexOf('root:');
  if (at < 0) return [];
  return path
    .slice(at + 'root:'.length)
    .split('/')
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
}

/**
 * Where a file is, as people read it (docs/decisions.md, "Importing from SharePoint and OneDrive"): in a SharePoint
 * library `Sites/<site>/<library>/<folders…>/<name>` (the library left out when it is the site's default one), in a
 * OneDrive `My files/<folders…>/<name>`. The first segment tells the service (`serviceOfPath` in `@sparks/db`).
 */
export function displayPath(where: { site?: string; library?: string }, folders: string[], name: string): string {
  const parts =
    where.site !== undefined
      ? [
          'Sites',
          where.site,
          ...(where.library && !DEFAULT_LIBRARIES.has(where.library.toLowerCase()) ? [where.library] : []),
        ]
      : ['My files'];
  return [...parts, ...folders, name].join('/');
}

/**
 * The files the import takes, by name, as the chat's upload does (docs/decisions.md, "Uploads: Word and text beside
 * PDF"): PDF, Word (.docx) and text (.txt, .md, .markdown); the bytes are checked once downloaded.
 */
export const importKindOf = (name: string): DocumentFileKind | undefined => kindOfName(name);
