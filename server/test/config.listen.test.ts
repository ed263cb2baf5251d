/** Where the server listens: this machine only unless HOST opens it (docs/configuration.md "Server settings"). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/tmp/orbit-config-test', ...env });

describe('the listening address', () => {
  it('is this machine only by default', () => {
    expect(load({}).host).toBe('127.0.0.1');
  });

  it.each(['0.0.0.0', '::', '192.0.2.10'])('is %s when HOST names it', (host) => {
    expect(load({ HOST: host }).host).toBe(host);
  });
});
