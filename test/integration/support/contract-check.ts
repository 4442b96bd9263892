import fs from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every real answer the tests receive, checked against the committed OpenAPI document (docs/openapi.json,
 * which api-docs.it.ts keeps equal to what the app serves). `startApp` puts this between the HTTP server and
 * the app: each JSON success answer of a `/api/v1` route is validated against the schema its route documents
 * for that status, whichever test made the request. A mismatch fails the test file when its app is closed; the
 * checked routes of all files are appended to the run's scratch folder, where the global teardown counts them
 * against the document (`contractsReport`).
 */

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;
interface Doc {
  paths: Record<string, Record<string, { responses?: Responses }>>;
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SUCCESS = /^2\d\d$/;
/** A body larger than this is not kept for checking (the zip downloads); no JSON answer comes near it. */
const MAX_BODY = 4 * 1024 * 1024;

let doc: Doc | undefined;
function document(): Doc {
  doc ??= JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'openapi.json'), 'utf8')) as Doc;
  return doc;
}

const validators = new Map<string, z.ZodType | null>();
/** The validator of what `method template` documents for `status` as JSON; null when it documents none. */
function validatorOf(method: string, template: string, status: number): z.ZodType | null {
  const key = `${method} ${template} ${status}`;
  if (!validators.has(key)) {
    const schema =
      document().paths[template]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
    validators.set(
      key,
      schema === undefined ? null : z.fromJSONSchema(schema as never, { defaultTarget: 'openapi-3.0' }),
    );
  }
  return validators.get(key) ?? null;
}

/** Express's route path as the document writes it: `/api/v1/sparks/:sparkId` → `/api/v1/sparks/{sparkId}`. */
function templateOf(req: IncomingMessage): string | undefined {
  const route = (req as { route?: { path?: unknown } }).route;
  const base = (req as { baseUrl?: string }).baseUrl ?? '';
  if (typeof route?.path !== 'string') return undefined;
  return `${base}${route.path}`.replace(/:(\w+)/g, '{$1}');
}

/** Where the checked routes of the run are written (beside the security scoreboard, in the run's scratch folder). */
function checkedFile(): string | undefined {
  const scoreboard = process.env.SPARKS_IT_SCOREBOARD;
  return scoreboard ? path.join(path.dirname(scoreboard), 'contracts-checked.jsonl') : undefined;
}

export class ContractCheck {
  private readonly checked = new Set<string>();
  private readonly failures: string[] = [];

  /** Puts the check in front of every request `server` receives (through supertest or a real port). */
  attach(server: Server): void {
    const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.watch(req, res);
      for (const listener of listeners) listener.call(server, req, res);
    });
  }

  private watch(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let template: string | undefined;
    const keep = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size <= MAX_BODY) chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0]);
      return write(...args);
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => {
      keep(args[0]);
      template = templateOf(req); // the router still holds the matched route while the handler answers
      return end(...args);
    }) as ServerResponse['end'];
    res.once('finish', () => {
      if (!template?.startsWith('/api/v1') || !SUCCESS.test(String(res.statusCode)) || size > MAX_BODY) return;
      if (!String(res.getHeader('content-type') ?? '').includes('application/json')) return;
      this.check(req.method!.toLowerCase(), template, res.statusCode, Buffer.concat(chunks).toString('utf8'));
    });
  }

  private check(method: string, template: string, status: number, text: string): void {
    const route = `${method.toUpperCase()} ${template} → ${status}`;
    const validator = validatorOf(method, template, status);
    if (!validator) {
      this.failures.push(`${route}: answered JSON the document does not describe for this status`);
      return;
    }
    const result = validator.safeParse(JSON.parse(text));
    if (result.success) this.checked.add(`${method} ${template} ${status}`);
    else this.failures.push(`${route}: ${JSON.stringify(result.error.issues).slice(0, 1500)}`);
  }

  /** Records what was checked for the run's report and throws when an answer did not match its document. */
  finish(): void {
    const file = checkedFile();
    if (file && this.checked.size > 0) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, [...this.checked].map((key) => `${key}\n`).join(''));
    }
    if (this.failures.length > 0) {
      const list = [...new Set(this.failures)].join('\n  ');
      throw new Error(`answers that do not match docs/openapi.json:\n  ${list}`);
    }
  }
}

/** The JSON success answers the document describes (`method template status`), for the run's report. */
function documentedAnswers(): string[] {
  const answers: string[] = [];
  for (const [template, operations] of Object.entries(document().paths)) {
    if (!template.startsWith('/api/v1')) continue;
    for (const [method, op] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (SUCCESS.test(status) && response.content?.['application/json']?.schema !== undefined) {
          answers.push(`${method} ${template} ${status}`);
        }
      }
    }
  }
  return answers.sort();
}

/**
 * The run's count for the global teardown: how many of the documented JSON success answers some test received
 * and checked, and which it did not. With `CONTRACTS_ALL=1` (the whole integration and security run of
 * `npm test`) an unchecked answer is an error, so a new route cannot land without a test that receives it.
 */
export function contractsReport(): { text: string; unchecked: string[] } | undefined {
  const file = checkedFile();
  if (!file || !fs.existsSync(file)) return undefined;
  const checked = new Set(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean));
  const documented = documentedAnswers();
  const unchecked = documented.filter((key) => !checked.has(key));
  const lines = [
    `Real answers checked against docs/openapi.json: ${documented.length - unchecked.length} of ${documented.length}`,
    ...unchecked.map((key) => `  not received by any test: ${key}`),
  ];
  return { text: lines.join('\n'), unchecked };
}
