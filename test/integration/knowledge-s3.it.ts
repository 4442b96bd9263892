import { S3Storage, StoredFileMissing } from '@sparks/knowledge';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GUIA_PAGES, makePdf } from './fixtures/pdfs';

/** S3Storage against a local S3 endpoint. */
describe('knowledge: the S3-compatible file store', () => {
  let guia: Buffer;
  beforeAll(async () => {
    guia = await makePdf(GUIA_PAGES);
  });

  it('keeps files in an S3-compatible store (AWS SDK v3 against a local S3 endpoint)', async () => {
    const objects = new Map<string, Buffer>();
    const server = http.createServer((req, res) => {
      const key = decodeURIComponent(req.url!.split('?')[0]);
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => {
        if (req.method === 'PUT') {
          objects.set(key, Buffer.concat(body));
          res.writeHead(200, { ETag: '"x"' }).end();
        } else if (req.method === 'GET' || req.method === 'HEAD') {
          const found = objects.get(key);
          if (!found) {
            res.writeHead(404, { 'Content-Type': 'application/xml' });
            res.end(req.method === 'GET' ? '<Error><Code>NoSuchKey</Code><Message>no</Message></Error>' : undefined);
          } else {
            res.writeHead(200, { 'Content-Length': found.length, 'Content-Type': 'application/pdf' });
            res.end(req.method === 'GET' ? found : undefined);
          }
        } else if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204).end();
        } else {
          res.writeHead(405).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const storage = new S3Storage({
      bucket: 'sparks-docs',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      accessKeyId: 'test',
      secretAccessKey: 'test',
      prefix: 'it/',
      tmpDir: path.join(os.tmpdir(), `s3-${randomUUID()}`),
    });
    try {
      const local = path.join(os.tmpdir(), `${randomUUID()}.pdf`);
      fs.writeFileSync(local, guia);
      const key = `documents/${randomUUID()}.pdf`;
      await storage.putFile(key, local);
      expect(fs.existsSync(local)).toBe(false);
      expect(objects.get(`/sparks-docs/it/${key}`)?.equals(guia)).toBe(true);
      expect(await storage.exists(key)).toBe(true);
      expect((await storage.get(key)).equals(guia)).toBe(true);
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.get(key)).rejects.toBeInstanceOf(StoredFileMissing);
      await expect(storage.get('../escape.pdf')).rejects.toThrow(/invalid storage key/);
    } finally {
      storage.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});
