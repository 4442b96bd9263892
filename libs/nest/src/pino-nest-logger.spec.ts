import { Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: new PinoNestLogger(pino({ name: 'worker', level: 'info' }, stream)), lines };
}

describe("the api's and the worker's logs", () => {
  afterEach(() => Logger.overrideLogger(true));

  it('are JSON lines (pino) with the context of the Nest logger that wrote them', () => {
    const { logger, lines } = capture();
    Logger.overrideLogger(logger);
    const log = new Logger('ConsumersService');
    log.warn('ingestion/document.ingest failed: TRUNCATED');
    log.error('reply failed', 'Error: boom\n    at x');
    log.debug('not at info');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed).toEqual([
      expect.objectContaining({
        name: 'worker',
        level: 40,
        context: 'ConsumersService',
        msg: 'ingestion/document.ingest failed: TRUNCATED',
      }),
      expect.objectContaining({
        level: 50,
        context: 'ConsumersService',
        msg: 'reply failed',
        stack: 'Error: boom\n    at x',
      }),
    ]);
  });

  it('writes an error object with its message and stack', () => {
    const { logger, lines } = capture();
    logger.error(new Error('kaput'), 'Ctx');
    const line = JSON.parse(lines[0]) as { msg: string; context: string; err: { message: string; stack: string } };
    expect(line).toMatchObject({ msg: 'kaput', context: 'Ctx', err: { message: 'kaput' } });
    expect(line.err.stack).toContain('kaput');
  });

  it('merge an object message into the line, with the text that follows it', () => {
    const { logger, lines } = capture();
    Logger.overrideLogger(logger);
    new Logger('Errors').error({ correlationId: 'r-1', err: new Error('db down') }, 'Unhandled error');
    new Logger('Errors').warn({ correlationId: 'r-2' }, 'Database busy');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ level: 50, context: 'Errors', correlationId: 'r-1', msg: 'Unhandled error' });
    expect(parsed[0].err).toMatchObject({ message: 'db down' });
    expect(parsed[1]).toMatchObject({ level: 40, context: 'Errors', correlationId: 'r-2', msg: 'Database busy' });
  });
});
