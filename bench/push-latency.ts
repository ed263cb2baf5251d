/**
 * How soon a friend request reaches a closed app as a push: the time from sending
 * POST /api/users/friends/request to the fake push service holding the decrypted push, one
 * request at a time, each between a different pair of members.
 *
 *   npx tsx bench/push-latency.ts
 *
 * The server and push-relay run as their own processes (SQLite in a temporary data directory);
 * the fake push service (TLS on loopback, VAPID check, aes128gcm decryption) runs here.
 * BENCH_ROUNDS (default 500) changes the number of timed requests.
 */
import { pairKey } from '../src/contracts/friends.ts';
import { pushTopic } from '../push-relay/src/deliver.ts';
import { table, writeResult, summary } from './common.ts';
import { type BenchMember, startPushBench } from './push-common.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const WARMUP = 20;
const pairs = ROUNDS + WARMUP;
// Distinct pairs from few members: every sender asks every recipient once.
const RECIPIENTS = Math.ceil(Math.sqrt(pairs));
const SENDERS = Math.ceil(pairs / RECIPIENTS);

const bench = await startPushBench();
const signups = async (prefix: string, count: number) => {
  const members: BenchMember[] = [];
  for (let i = 0; i < count; i += 10)
    members.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, (_, j) =>
          bench.signup(`${prefix}${i + j}`),
        ),
      )),
    );
  return members;
};
const senders = await signups('sender', SENDERS);
const recipients = await signups('recipient', RECIPIENTS);
for (const recipient of recipients) await bench.addDevice(recipient);
console.log(`${SENDERS} senders, ${RECIPIENTS} recipients with one device each`);

const latencies: number[] = [];
const responses: number[] = [];
for (let round = 0; round < pairs; round++) {
  const sender = senders[Math.floor(round / RECIPIENTS)]!;
  const recipient = recipients[round % RECIPIENTS]!;
  const topic = pushTopic(pairKey(sender.id, recipient.id));
  const arrived = bench.service.waitFor((push) => push.topic === topic, 10_000);
  const sent = performance.now();
  const response = await bench.post(sender, 'request', { toUserId: recipient.id });
  const answered = performance.now();
  if (response.status !== 200) throw new Error(`request answered ${response.status}`);
  await response.arrayBuffer();
  const push = await arrived;
  if (round >= WARMUP) {
    latencies.push(push.at - sent);
    responses.push(answered - sent);
  }
}
const rejected = bench.service.rejected.length;
await bench.stop();

const push = summary(latencies);
const response = summary(responses);
const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(
  `\nPOST /api/users/friends/request → decrypted push at the fake service, ${ROUNDS} requests`,
);
console.log(
  table([
    ['measure', 'p50', 'p99', 'max'],
    ['request sent → push received', ms(push.p50), ms(push.p99), ms(push.max)],
    ['POST response time', ms(response.p50), ms(response.p99), ms(response.max)],
  ]),
);
if (rejected > 0) console.log(`The fake push service rejected ${rejected} pushes.`);
const file = writeResult('push-latency', {
  rounds: ROUNDS,
  pairs: { senders: SENDERS, recipients: RECIPIENTS },
  pushReceivedMs: push,
  responseMs: response,
  rejected,
});
console.log(`Written to ${file}`);
process.exit(0);
