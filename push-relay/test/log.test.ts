/** The relay's log lines: JSON for log shippers, readable at a terminal. */
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadRelaySettings } from '../src/config.ts';
import { createLogger, errorFields, prettyStream } from '../src/log.ts';

const base = { NODE_ENV: 'development', RELAY_SECRET: 'a-secret-of-sixteen-chars' };

describe('the relay log format', () => {
  it('is pretty at a terminal and JSON elsewhere, unless LOG_FORMAT says otherwise', () => {
    expect(loadRelaySettings(base, true).logFormat).toBe('pretty');
    expect(loadRelaySettings(base, false).logFormat).toBe('json');
    expect(loadRelaySettings({ ...base, LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadRelaySettings({ ...base, LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  });

  it('refuses a LOG_FORMAT it does not know', () => {
    expect(() => loadRelaySettings({ ...base, LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('writes one JSON object per line by default', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (line) => lines.push(line) });
    log.info({ server: 'http://x' }, 'started');
    log.debug('below the level');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\{.*\}\n$/);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 30,
      name: 'push-relay',
      server: 'http://x',
      msg: 'started',
    });
  });

  it("writes an error's name, message and codes, not what else it carries", () => {
    const lines: string[] = [];
    const error = Object.assign(new Error('the push service answered 500'), {
      statusCode: 500,
      endpoint: 'https://push.example.net/send/secret-token',
      headers: { 'x-secret': 'yes' },
    });
    createLogger('info', { write: (line) => lines.push(line) }).warn({ err: error }, 'push failed');
    const entry = JSON.parse(lines[0] ?? '') as { err: unknown };
    expect(entry.err).toEqual(errorFields(error));
    expect(entry.err).toEqual({
      type: 'Error',
      message: 'the push service answered 500',
      statusCode: 500,
    });
    expect(lines[0]).not.toContain('secret');
  });

  it('writes readable lines through the pretty stream', () => {
    const destination = new PassThrough();
    let written = '';
    destination.on('data', (chunk: Buffer) => (written += chunk.toString()));
    createLogger('info', prettyStream(destination)).info('push is on');
    // Colours depend on where the tests run; the words do not.
    const plain = stripVTControlCharacters(written);
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\] INFO \(push-relay\): push is on/);
  });
});
