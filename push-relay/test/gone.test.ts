/**
 * Pushes of a deleted account (docs/decisions.md "Leaving: delete and export"): the server tells
 * every relay, and a push to the member or about them that is not delivered yet is dropped and
 * settled, so it is neither sent later nor left holding the cursor back.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Member, asBearer, friendAction, signupMembers } from '../../server/test/factories.ts';
import type { Relay } from '../src/running.ts';
import { type FakePushService, startFakePushService } from './fake-push-service.ts';
import { type Orbit, addDevice, nextSettled, startOrbit, startTestRelay } from './harness.ts';

const GONE = 'the member’s account was deleted';

let orbit: Orbit;
let service: FakePushService;
let relay: Relay;

beforeAll(async () => {
  [orbit, service] = await Promise.all([startOrbit(), startFakePushService()]);
  // Retries far apart and many: a delivery is still trying when the account goes.
  relay = await startTestRelay(orbit, service, {
    retry: { baseMs: 400, maxAttempts: 20, budgetMs: 60_000 },
  });
});
afterAll(async () => {
  await relay.close();
  await service.close();
  await orbit.close();
});

const deleteAccount = (member: Member) =>
  orbit.app.inject({
    method: 'DELETE',
    url: '/api/auth/account',
    headers: asBearer(member),
    payload: { password: member.password, username: member.username },
  });

/**
 * A friend request from `sender` to `recipient`, whose device answers 503 `failures` times: answers
 * once the relay has tried it at least once, with the event's settling still to come.
 */
async function retriedRequest(sender: Member, recipient: Member, failures: number) {
  const device = await addDevice(orbit, service, recipient);
  service.failNext(device.id, 503, failures);
  const settled = nextSettled(relay);
  await friendAction(orbit.app, sender, 'request', recipient);
  await vi.waitFor(() => expect(service.attemptsFor(device.id)).toBeGreaterThan(0));
  return { device, settled };
}

describe('a push still being retried', () => {
  it('is dropped and settled when its recipient deletes their account, and tried no more', async () => {
    const [sender, recipient] = await signupMembers(orbit.app, 2);
    const { device, settled } = await retriedRequest(sender, recipient, 1_000);

    expect((await deleteAccount(recipient)).statusCode).toBe(200);

    const event = await settled;
    expect(event.outcomes).toEqual([
      { result: 'dropped', status: undefined, reason: GONE, attempts: 0 },
    ]);
    expect(relay.lastEventId).toBe(event.id);
    const tried = service.attemptsFor(device.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(service.attemptsFor(device.id)).toBe(tried);
    expect(service.pushesFor(device.id)).toEqual([]);
  });

  it('is dropped when the member who sent the request deletes their account', async () => {
    const [sender, recipient] = await signupMembers(orbit.app, 2);
    const { device, settled } = await retriedRequest(sender, recipient, 1_000);

    expect((await deleteAccount(sender)).statusCode).toBe(200);

    expect((await settled).outcomes).toMatchObject([{ result: 'dropped', reason: GONE }]);
    service.recover(device.id);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(service.pushesFor(device.id)).toEqual([]);
  });

  it('goes on for everyone else', async () => {
    const [sender, recipient, leaver] = await signupMembers(orbit.app, 3);
    const { device, settled } = await retriedRequest(sender, recipient, 2);

    expect((await deleteAccount(leaver)).statusCode).toBe(200);

    expect((await settled).outcomes).toMatchObject([{ result: 'sent', attempts: 3 }]);
    expect(service.pushesFor(device.id)).toHaveLength(1);
  });
});

it('drops an event about a member it heard was gone before the event came', async () => {
  const [sender, recipient] = await signupMembers(orbit.app, 2);
  const device = await addDevice(orbit, service, recipient);
  const heard = new Promise((resolve) => relay.once('members-gone', resolve));
  // As another node would tell it, ahead of an event this node was about to send.
  orbit.app.relay.membersGone([recipient.user.id]);
  expect(await heard).toEqual([recipient.user.id]);
  const settled = nextSettled(relay);

  await friendAction(orbit.app, sender, 'request', recipient);

  expect((await settled).outcomes).toEqual([]);
  expect(service.attemptsFor(device.id)).toBe(0);
});
