/**
 * How many pushes per second push-relay gets to a push service: 1,000 subscriptions (50 members
 * with 20 devices each, the most the server keeps per member), every member sent a friend
 * request at once, timed from the first request to the last decrypted push. Repeated for
 * BENCH_ROUNDS rounds (default 3, after one untimed round), cancelling the requests in between.
 *
 *   npx tsx bench/relay-throughput.ts
 *   BENCH_CONCURRENCY=100 npx tsx bench/relay-throughput.ts   (the relay's PUSH_CONCURRENCY)
 *
 * The server and push-relay run as their own processes; the fake push service (TLS, VAPID check,
 * aes128gcm decryption of every push) runs here.
 */
import { MAX_DEVICES_PER_MEMBER } from '../server/src/features/push/service.ts';
import { median, table, writeResult } from './common.ts';
import { type BenchMember, startPushBench } from './push-common.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = process.env.BENCH_CONCURRENCY ?? '50';
const MEMBERS = Math.ceil(DEVICES / MAX_DEVICES_PER_MEMBER);

const bench = await startPushBench({ PUSH_CONCURRENCY: CONCURRENCY });
const sender = await bench.signup('sender');
const recipients: BenchMember[] = [];
for (let i = 0; i < MEMBERS; i += 10)
  recipients.push(
    ...(await Promise.all(
      Array.from({ length: Math.min(10, MEMBERS - i) }, (_, j) => bench.signup(`member${i + j}`)),
    )),
  );
let devices = 0;
for (const recipient of recipients) {
  for (let d = 0; d < MAX_DEVICES_PER_MEMBER && devices < DEVICES; d++, devices++)
    await bench.addDevice(recipient);
}
console.log(
  `${devices} subscriptions over ${MEMBERS} members; relay PUSH_CONCURRENCY=${CONCURRENCY}`,
);

function pushes(count: number): Promise<number> {
  return new Promise((resolve) => {
    let seen = 0;
    const listener = () => {
      seen++;
      if (seen < count) return;
      bench.service.off('push', listener);
      resolve(performance.now());
    };
    bench.service.on('push', listener);
  });
}

interface Round {
  seconds: number;
  perSecond: number;
  /** When the last request was answered, and when the first push arrived (seconds in). */
  answeredSeconds: number;
  firstPushSeconds: number;
}

async function round(): Promise<Round> {
  const done = pushes(devices);
  const first = pushes(1);
  const started = performance.now();
  const answers = await Promise.all(
    recipients.map((recipient) => bench.post(sender, 'request', { toUserId: recipient.id })),
  );
  for (const answer of answers) {
    if (answer.status !== 200) throw new Error(`request answered ${answer.status}`);
    await answer.arrayBuffer();
  }
  const answeredSeconds = (performance.now() - started) / 1000;
  const firstPushSeconds = ((await first) - started) / 1000;
  const seconds = ((await done) - started) / 1000;
  await Promise.all(
    recipients.map(async (recipient) => {
      await (await bench.post(sender, 'cancel', { toUserId: recipient.id })).arrayBuffer();
    }),
  );
  return { seconds, perSecond: devices / seconds, answeredSeconds, firstPushSeconds };
}

await round();
const rounds: Round[] = [];
for (let i = 1; i <= ROUNDS; i++) {
  const result = await round();
  rounds.push(result);
  console.log(
    `round ${i}: ${devices} pushes in ${result.seconds.toFixed(2)} s (requests answered by ${result.answeredSeconds.toFixed(2)} s, first push at ${result.firstPushSeconds.toFixed(2)} s)`,
  );
}
const rejected = bench.service.rejected.length;
await bench.stop();

const rates = rounds.map((result) => result.perSecond);
console.log(`\nRelay throughput to the fake push service, ${devices} subscriptions`);
console.log(
  table([
    ['median', 'best', 'worst'],
    [median(rates), Math.max(...rates), Math.min(...rates)].map(
      (rate) => `${rate.toFixed(0)} pushes/s`,
    ),
  ]),
);
if (rejected > 0) console.log(`The fake push service rejected ${rejected} pushes.`);
const file = writeResult('relay-throughput', {
  subscriptions: devices,
  members: MEMBERS,
  concurrency: Number(CONCURRENCY),
  rounds,
  medianPerSecond: median(rates),
  rejected,
});
console.log(`Written to ${file}`);
process.exit(0);
