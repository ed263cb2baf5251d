/**
 * A deletion on one node reaches the others through Redis (docs/decisions.md "Session cache",
 * "Leaving: delete and export"): a session another node remembers is refused there within a
 * second, and the member's sockets on that node end. Redis at REDIS_TEST_URL is required: when it
 * is unreachable these tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import { expect, it, vi } from 'vitest';
import type { Ack } from '../../src/contracts/realtime.ts';
import { deleteOwnAccount } from './account-helpers.ts';
import { loginAs, signupMembers, signedInAs } from './helpers.ts';
import { describeTwoNodes } from './live-app.ts';

const twoNodes = await describeTwoNodes('the cross-node account deletion tests', 'account', {
  // Far longer than the bound: only the revocation can make the other node forget in time.
  SESSION_CACHE_TTL_MS: '300000',
});

/** How long a revocation may take to reach the other node. */
const BOUND_MS = 1_000;

twoNodes('two apps on one Redis and one database', ({ t, nodes, connectTo }) => {
  it('ends the member’s remembered session and sockets on the other node', async () => {
    const [leaver, watcher] = await signupMembers(t.app, 2);
    const elsewhere = await loginAs(t.app, leaver);
    const memory = nodes.second.sessions.sessionMemory;
    await vi.waitFor(() => expect(memory?.cache.serving).toBe(true), { timeout: 5_000 });
    const remembered = memory?.cache.size ?? 0;
    expect((await signedInAs(nodes.second, elsewhere))?.id).toBe(leaver.user.id);
    expect(memory?.cache.size).toBe(remembered + 1);

    const tab = await connectTo(nodes.origin2, elsewhere);
    const joined = (await tab
      .timeout(5_000)
      .emitWithAck('presence:join', { userId: leaver.user.id })) as Ack;
    expect(joined.ok).toBe(true);
    const watching = await connectTo(nodes.origin1, watcher);
    await watching.timeout(5_000).emitWithAck('gallery:join', { ownerId: leaver.user.id });
    const offline = new Promise((resolve) => watching.once('presence:update', resolve));
    const ended = new Promise<string>((resolve) => tab.once('disconnect', resolve));

    const deletedAt = Date.now();
    expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);

    await vi.waitFor(async () => expect(await signedInAs(nodes.second, elsewhere)).toBeNull(), {
      timeout: BOUND_MS,
      interval: 20,
    });
    expect(Date.now() - deletedAt).toBeLessThan(BOUND_MS + 500);
    expect(await ended).toBe('io server disconnect');
    expect(await offline).toEqual({ userId: leaver.user.id, online: false });
  });
});
