/**
 * The request log at `info` (the level deploy/orbit.env ships): one line per answered request with
 * its method, route pattern, status, milliseconds and request id, and nothing a member typed.
 */
import { describe, expect, it } from 'vitest';
import { asBearer, getMe, signupUser, useTestApp } from './helpers.ts';

interface Line {
  msg: string;
  reqId?: string;
  request?: { method: string; route: string; status: number; ms: number };
}

const lines: Line[] = [];
const t = useTestApp(
  'sqlite',
  { LOG_LEVEL: 'info' },
  { logStream: { write: (line) => lines.push(JSON.parse(line) as Line) } },
);

/** The lines written for the request with this id. */
async function linesOf(reqId: string, send: (headers: Record<string, string>) => Promise<unknown>) {
  await send({ 'x-request-id': reqId });
  return lines.filter((line) => line.reqId === reqId);
}

describe('the request log', () => {
  it('writes one line for a request, with method, route, status, time and request id', async () => {
    const member = await signupUser(t.app);
    const written = await linesOf('log-me-1', (headers) =>
      getMe(t.app, { ...headers, ...asBearer(member) }),
    );
    expect(written).toHaveLength(1);
    const [line] = written;
    expect(line).toMatchObject({
      level: 30,
      reqId: 'log-me-1',
      request: { method: 'GET', route: '/api/auth/me', status: 200 },
    });
    expect(line?.request?.ms).toBeGreaterThan(0);
    // The message is the same summary, for a person reading the log.
    expect(line?.msg).toBe(`GET /api/auth/me 200 ${line?.request?.ms} ms`);
    expect(JSON.stringify(lines)).not.toContain(member.token);
  });

  it('names the route by its pattern, never by the member in the address or the query', async () => {
    const member = await signupUser(t.app);
    const written = await linesOf('log-profile-1', (headers) =>
      t.app.inject({
        url: `/api/users/profile/${member.username}?secret=xyz`,
        headers: { ...headers, ...asBearer(member) },
      }),
    );
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      request: { route: '/api/users/profile/:username', status: 200 },
    });
    expect(JSON.stringify(written)).not.toContain(member.username);
    expect(JSON.stringify(written)).not.toContain('xyz');
  });

  it.each([
    ['a refused request', '/api/auth/me', 'POST', 404],
    ['an unknown address', '/api/nowhere', 'GET', 404],
  ])('writes one line for %s too', async (_what, url, method, status) => {
    const reqId = `log-${status}-${url.length}-${method}`;
    const written = await linesOf(reqId, (headers) =>
      t.app.inject({ url, method: method as 'GET' | 'POST', headers }),
    );
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ reqId, request: { method, status } });
  });
});
