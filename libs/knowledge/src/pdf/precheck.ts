import type { ExtractLimits, ExtractOutcome } from './extract';
import { hasEofMarker, hasPdfHeader } from './magic';
import { checkCompressedStreams, checkCompressedStreamsAsync, type InflateLimits } from './streams';

export type ExtractRefusal = Extract<ExtractOutcome, { ok: false }>;

/**
 * The checks made on the bytes before any PDF reader sees them, whichever reader it is: the same
 * file gets the same answer (a cut file, something that is not a PDF) from both.
 */
export function checkFrame(data: Uint8Array): ExtractRefusal | undefined {
  if (!hasPdfHeader(data)) return { ok: false, code: 'MALFORMED' };
  if (!hasEofMarker(data)) return { ok: false, code: 'TRUNCATED' };
  return undefined;
}

const inflateLimits = (limits: ExtractLimits): InflateLimits => ({
  maxStreamBytes: limits.maxStreamBytes,
  maxTotalBytes: limits.maxInflatedBytes,
});

/** Decompression bombs (see `checkCompressedStreams`), refused as TOO_COMPLEX. */
export function checkBombs(data: Uint8Array, limits: ExtractLimits): ExtractRefusal | undefined {
  return checkCompressedStreams(data, inflateLimits(limits)).ok ? undefined : { ok: false, code: 'TOO_COMPLEX' };
}

/** `checkBombs` without blocking the calling thread while streams inflate. */
export async function checkBombsAsync(data: Uint8Array, limits: ExtractLimits): Promise<ExtractRefusal | undefined> {
  return (await checkCompressedStreamsAsync(data, inflateLimits(limits))).ok
    ? undefined
    : { ok: false, code: 'TOO_COMPLEX' };
}
