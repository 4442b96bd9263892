import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface InflateLimits {
  /** Largest decompressed size allowed for one stream. */
  maxStreamBytes: number;
  /** Largest decompressed size allowed for all the streams of the file together. */
  maxTotalBytes: number;
}

export type InflateCheck = { ok: true; totalBytes: number } | { ok: false; totalBytes: number };

const STREAM = Buffer.from('stream', 'latin1');
const END_STREAM = Buffer.from('endstream', 'latin1');
/** Image streams are not decoded to read text; only their dictionary is looked at. */
const IMAGE_SUBTYPE = /\/Subtype\s*\/Image\b/;

/** zlib headers (CMF 0x78 with a valid check byte): the start of a FlateDecode stream. */
function looksLikeZlib(buf: Buffer, at: number): boolean {
  return buf.length > at + 1 && buf[at] === 0x78 && ((buf[at] << 8) | buf[at + 1]) % 31 === 0;
}

const inflateOptions = (limit: number): zlib.ZlibOptions => ({
  maxOutputLength: limit,
  finishFlush: zlib.constants.Z_SYNC_FLUSH,
});

interface Inflated {
  size: number;
  output?: Buffer;
}

/** What an inflation attempt says: the size, Infinity when it goes over the limit. */
function judge(err: unknown): Inflated {
  if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { size: Infinity };
  return { size: 0 }; // not zlib after all, or damaged: the PDF reader will judge it
}

/** Inflates up to `limit` bytes; answers the decompressed size, or Infinity when it goes over. */
function inflatedSize(data: Buffer, limit: number): Inflated {
  try {
    const output = zlib.inflateSync(data, inflateOptions(limit));
    return { size: output.length, output };
  } catch (err) {
    return judge(err);
  }
}

const inflateAsync = promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.inflate);

/** The same, on libuv's thread pool: the calling thread stays free meanwhile. */
async function inflatedSizeAsync(data: Buffer, limit: number): Promise<Inflated> {
  try {
    const output = await inflateAsync(data, inflateOptions(limit));
    return { size: output.length, output };
  } catch (err) {
    return judge(err);
  }
}

/** The compressed data of every stream of the file that is not an image, in file order. */
function* compressedStreams(buf: Buffer): Generator<Buffer> {
  let at = buf.indexOf(STREAM);
  while (at !== -1) {
    // The keyword opens a stream only right after its dictionary ("… >> stream"); skip "endstream" and text.
    const before = buf.toString('latin1', Math.max(0, at - 8), at).trimEnd();
    if (!before.endsWith('>>')) {
      at = buf.indexOf(STREAM, at + STREAM.length);
      continue;
    }
    let dataStart = at + STREAM.length;
    if (buf[dataStart] === 0x0d) dataStart += 1;
    if (buf[dataStart] === 0x0a) dataStart += 1;
    const end = buf.indexOf(END_STREAM, dataStart);
    if (end === -1) return;
    if (looksLikeZlib(buf, dataStart)) {
      const head = buf.toString('latin1', Math.max(0, at - 2048), at);
      const dictionary = head.slice(Math.max(0, head.lastIndexOf('obj')));
      if (!IMAGE_SUBTYPE.test(dictionary)) yield buf.subarray(dataStart, end);
    }
    at = buf.indexOf(STREAM, end + END_STREAM.length);
  }
}

const asBuffer = (pdf: Uint8Array) => Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
const capFor = (limits: InflateLimits, total: number) =>
  Math.min(limits.maxStreamBytes, limits.maxTotalBytes - total) + 1;
const over = (limits: InflateLimits, size: number, total: number) =>
  size > limits.maxStreamBytes || total > limits.maxTotalBytes;

/**
 * Looks for decompression bombs before the PDF reader sees the file: every compressed stream that is
 * not an image is inflated with a cap (into a bounded buffer that is dropped at once), and so is a
 * second compression layer inside it. A file whose streams would inflate past the limits is refused.
 */
export function checkCompressedStreams(pdf: Uint8Array, limits: InflateLimits): InflateCheck {
  let total = 0;
  for (const data of compressedStreams(asBuffer(pdf))) {
    const cap = capFor(limits, total);
    const first = inflatedSize(data, cap);
    let size = first.size;
    if (first.output && looksLikeZlib(first.output, 0)) size = Math.max(size, inflatedSize(first.output, cap).size);
    total += size;
    if (over(limits, size, total)) return { ok: false, totalBytes: total };
  }
  return { ok: true, totalBytes: total };
}

/** `checkCompressedStreams` with the inflating done off the calling thread (for the worker's main thread). */
export async function checkCompressedStreamsAsync(pdf: Uint8Array, limits: InflateLimits): Promise<InflateCheck> {
  let total = 0;
  for (const data of compressedStreams(asBuffer(pdf))) {
    const cap = capFor(limits, total);
    const first = await inflatedSizeAsync(data, cap);
    let size = first.size;
    if (first.output && looksLikeZlib(first.output, 0)) {
      size = Math.max(size, (await inflatedSizeAsync(first.output, cap)).size);
    }
    total += size;
    if (over(limits, size, total)) return { ok: false, totalBytes: total };
  }
  return { ok: true, totalBytes: total };
}
