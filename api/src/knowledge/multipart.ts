import { DomainError } from '@sparks/core';
import { TextUploadCheck, UPLOAD_HEAD_LENGTH, uploadKind, type UploadKind } from '@sparks/knowledge';
import busboy from 'busboy';
import type { Request } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { badText, hasBadCharacter, printable } from '../common/text-input';

export interface ReceivedFile {
  /** The temp file holding the bytes; the caller stores or deletes it. */
  path: string;
  /** The name the browser sent (display text only, not yet sanitised). */
  filename: string;
  size: number;
  sha256: string;
  /** What it is, from its first bytes and its name (`uploadKind`). */
  kind: UploadKind;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file?: ReceivedFile;
}

export interface ReceiveOptions {
  tmpDir: string;
  maxBytes: number;
  /** The form field that carries the file. */
  fileField?: string;
  /** A body that sends nothing for this long is refused with 408 (and its connection closed). */
  idleTimeoutMs?: number;
}

/** Temp files are named `<uuid>.upload`; nothing else in the folder is ours to remove. */
export const TMP_UPLOAD_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.upload$/;

/** Multipart framing and the small text fields never come near this; a bigger body is refused unread. */
const ENVELOPE_ALLOWANCE = 1024 * 1024;
/** After a refusal the rest of the body is read and dropped (so the client sees the answer), up to this much. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

function tooLarge(maxBytes: number): DomainError {
  const maxMb = Math.round(maxBytes / (1024 * 1024));
  return new DomainError([
    { code: 'FILE_TOO_LARGE', field: 'file' },
    { code: 'FILE_TOO_LARGE_DETAIL', field: 'file', params: { maxMb } },
  ]);
}

function uploadTimeout(idleTimeoutMs: number): DomainError {
  return new DomainError({
    code: 'UPLOAD_TIMEOUT',
    params: { seconds: Math.max(1, Math.round(idleTimeoutMs / 1000)) },
  });
}

function incorrectFormat(): DomainError {
  return new DomainError([
    { code: 'INCORRECT_FORMAT', field: 'file' },
    { code: 'INCORRECT_FORMAT_DETAIL', field: 'file' },
  ]);
}

/** Drops the rest of a refused request body without keeping it, and hangs up on a client that keeps sending. */
function discardRest(req: Request): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) req.socket.destroy();
  });
  req.resume();
}

/**
 * Reads a multipart upload as it streams: the file goes to a temp file while its size is counted,
 * its first bytes and name decide its kind (a PDF, a .docx, or .txt/.md text checked as UTF-8 all along:
 * `uploadKind`) and its SHA-256 is computed. Past `maxBytes` (or as soon as it is none of those) reading stops at
 * once with 413 (or 415) and the partial file is deleted;
 * nothing of the body is held in memory beyond the current chunk. A client that goes away, or
 * sends nothing for `idleTimeoutMs` (408), leaves no temp file either.
 */
export function receiveUpload(req: Request, options: ReceiveOptions): Promise<ReceivedUpload> {
  const fileField = options.fileField ?? 'file';
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    return Promise.reject(new DomainError({ code: 'FILE_REQUIRED', field: 'file' }));
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + ENVELOPE_ALLOWANCE) {
    // Refused unread: close the connection rather than read a body we already know is too big.
    req.res?.setHeader('Connection', 'close');
    return Promise.reject(tooLarge(options.maxBytes));
  }

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: ReceivedFile | undefined;
    let tmpPath: string | undefined;
    let out: fs.WriteStream | undefined;
    let fileDone = true;
    let parsed = false;
    let settled = false;

    /** Closes and deletes the partial file; resolves once it is gone. */
    const cleanup = () =>
      new Promise<void>((done) => {
        const pathToRemove = tmpPath;
        if (!pathToRemove) return done();
        const remove = () => fs.rm(pathToRemove, { force: true }, () => done());
        if (out && !out.closed) {
          out.once('close', remove);
          out.destroy();
        } else {
          remove();
        }
      });

    let idle: NodeJS.Timeout | undefined;
    const watchIdle = () => {
      if (!options.idleTimeoutMs || settled) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        // The client gets its answer, then the connection is closed rather than waited on.
        req.res?.setHeader('Connection', 'close');
        fail(uploadTimeout(options.idleTimeoutMs!));
      }, options.idleTimeoutMs);
    };

    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      req.unpipe(bb);
      bb.removeAllListeners();
      bb.on('error', () => undefined);
      discardRest(req);
      void cleanup().then(() => reject(err));
    };

    const maybeDone = () => {
      if (settled || !parsed || !fileDone) return;
      settled = true;
      clearTimeout(idle);
      resolve({ fields, file });
    };

    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy signals its limit when a file reaches it; one byte more lets exactly maxBytes through.
        limits: { files: 1, fileSize: options.maxBytes + 1, fields: 10, fieldSize: 4096, parts: 20, headerPairs: 100 },
      });
    } catch {
      reject(new DomainError({ code: 'FILE_REQUIRED', field: 'file' }));
      return;
    }

    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(DomainError.invalid('INVALID_PARAMS', name));
      // busboy turns bytes that are not UTF-8 (an encoded surrogate) into U+FFFD, so in a form field that
      // character is refused with NUL and lone surrogates: the text would otherwise be stored altered.
      if (hasBadCharacter(name) || hasBadCharacter(value) || value.includes('\uFFFD')) {
        return fail(badText(printable(name)));
      }
      fields[name] = value;
    });

    bb.on('file', (name, stream, info) => {
      if (name !== fileField || file || tmpPath) {
        stream.resume(); // another part, or a second file: ignored
        return;
      }
      fileDone = false;
      fs.mkdirSync(options.tmpDir, { recursive: true });
      tmpPath = path.join(options.tmpDir, `${randomUUID()}.upload`);
      const target = tmpPath;
      const output = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
      out = output;
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      // The name the kind goes by: the file's own, else the `name` field when it came first.
      const named = info.filename || fields.name || '';
      let kind: UploadKind | undefined;
      const text = new TextUploadCheck();
      /** Decides the kind from the first bytes; false when the file is none of the kinds read. */
      const decide = (): boolean => {
        const first = Buffer.concat(head);
        kind = uploadKind(first, named);
        return kind !== undefined && (kind === 'pdf' || kind === 'docx' || text.push(first));
      };

      stream.on('limit', () => fail(tooLarge(options.maxBytes)));
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (kind === undefined) {
          head.push(chunk);
          headLength += chunk.length;
          if (headLength >= UPLOAD_HEAD_LENGTH && !decide()) return fail(incorrectFormat());
        } else if ((kind === 'txt' || kind === 'md') && !text.push(chunk)) {
          return fail(incorrectFormat());
        }
        size += chunk.length;
        if (size > options.maxBytes) return fail(tooLarge(options.maxBytes));
        hash.update(chunk);
        if (!output.write(chunk)) {
          stream.pause();
          output.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => {
        if (settled) return;
        if (size === 0) return fail(DomainError.invalid('EMPTY_FILE', 'file'));
        // A file shorter than the head is decided now; text must also end as whole UTF-8 characters.
        if (kind === undefined && !decide()) return fail(incorrectFormat());
        if ((kind === 'txt' || kind === 'md') && !text.end()) return fail(incorrectFormat());
        output.end();
      });
      // busboy fails the file's stream when the body breaks inside it (no closing boundary): the
      // client's request is malformed. A write error of the temp file stays a server error.
      stream.on('error', () => fail(DomainError.invalid('INVALID_PARAMS', 'file')));
      output.on('error', fail);
      output.on('finish', () => {
        if (settled) return;
        if (!kind) return fail(incorrectFormat());
        file = { path: target, filename: info.filename ?? '', size, sha256: hash.digest('hex'), kind };
        fileDone = true;
        maybeDone();
      });
    });

    bb.on('error', () => fail(DomainError.invalid('INVALID_PARAMS', 'file')));
    bb.on('close', () => {
      parsed = true;
      maybeDone();
    });
    req.on('close', () => {
      if (!req.complete) fail(new Error('the client went away during the upload'));
    });
    req.on('data', watchIdle);
    watchIdle();
    req.pipe(bb);
  });
}
