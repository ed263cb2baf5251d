import { describe, expect, it } from 'vitest';
import { chooseLogFormat, localUrl } from './logging.ts';

describe('the log format', () => {
  it('is readable at a terminal', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
  });

  it('is JSON lines when the output is not a terminal (a file, a pipe, a log shipper)', () => {
    expect(chooseLogFormat(undefined, false)).toBe('json');
  });

  it('follows LOG_FORMAT whatever the output is', () => {
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});

describe('the address in the ready line', () => {
  it('is localhost when the server listens on this machine (the default) or every interface', () => {
    expect(localUrl('127.0.0.1', 5000)).toBe('http://localhost:5000');
    expect(localUrl('0.0.0.0', 5000)).toBe('http://localhost:5000');
    expect(localUrl('::', 8080)).toBe('http://localhost:8080');
  });

  it('is the given host otherwise, an IPv6 one in brackets', () => {
    expect(localUrl('192.0.2.10', 5000)).toBe('http://192.0.2.10:5000');
    expect(localUrl('::1', 5000)).toBe('http://[::1]:5000');
  });
});
