/** `npm start`'s decision to run push-relay beside the server (scripts/processes.mjs). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pushRelay } from '../../scripts/processes.mjs';
import { vapidSubjectFallback } from '../src/contact.ts';

const how = { command: 'node', args: ['push-relay/src/main.ts'], vapidSubjectFallback };
const production = { NODE_ENV: 'production', PORT: '5000', DATA_DIR: '/srv/orbit' };

/** pushRelay's answer and what it printed as warnings. */
function decide(env: NodeJS.ProcessEnv) {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const decision = pushRelay(env, how);
  return { ...decision, warnings: warn.mock.calls.map((call) => String(call[0])) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('npm start in production', () => {
  it('runs the relay with a contact from VAPID_SUBJECT, sharing a generated secret', () => {
    const { serverEnv, relay, warnings } = decide({
      ...production,
      VAPID_SUBJECT: 'mailto:ops@orbit.example',
    });
    expect(relay).toMatchObject({ name: 'relay', command: 'node' });
    expect(serverEnv.RELAY_SECRET).toMatch(/^[\w-]{43}$/);
    expect(relay?.env).toMatchObject({
      RELAY_SECRET: serverEnv.RELAY_SECRET,
      SERVER_URL: 'http://127.0.0.1:5000',
      DATA_DIR: '/srv/orbit',
    });
    expect(warnings).toEqual([]);
  });

  it('runs the relay on one machine with nothing set', () => {
    const { relay, warnings } = decide(production);
    expect(relay).toMatchObject({ name: 'relay', command: 'node' });
    expect(warnings).toEqual([]);
  });

  it.each(['https://orbit.example', 'http://localhost:5000', 'http://127.0.0.1:5000'])(
    'runs the relay with PUBLIC_URL=%s',
    (publicUrl) => {
      const { relay, warnings } = decide({ ...production, PUBLIC_URL: publicUrl });
      expect(relay).toMatchObject({ name: 'relay', command: 'node' });
      expect(warnings).toEqual([]);
    },
  );

  it('turns push off for a PUBLIC_URL that is neither https: nor this machine, and says why and what to set', () => {
    const { serverEnv, relay, warnings } = decide({
      ...production,
      PUBLIC_URL: 'http://orbit.lan',
    });
    expect(relay).toBeUndefined();
    expect(serverEnv.RELAY_SECRET).toBeUndefined();
    expect(warnings).toEqual([
      'Push notifications are off: PUBLIC_URL is http://orbit.lan, not https: (browsers offer push only to https: pages and localhost, and push services need a contact). Set VAPID_SUBJECT=mailto:you@example.com, or serve Orbit over https: and set PUBLIC_URL to that address.',
    ]);
  });

  it('leaves an invalid PUBLIC_URL to the relay, which refuses it and stops npm start', () => {
    const { relay, warnings } = decide({ ...production, PUBLIC_URL: 'orbit.example' });
    expect(relay?.env?.PUBLIC_URL).toBe('orbit.example');
    expect(warnings).toEqual([]);
  });
});

describe('npm run dev', () => {
  it('runs the relay whatever PUBLIC_URL says', () => {
    const { relay } = decide({
      ...production,
      NODE_ENV: 'development',
      PUBLIC_URL: 'http://orbit.lan',
    });
    expect(relay).toMatchObject({ name: 'relay', command: 'node' });
  });
});
