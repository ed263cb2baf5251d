/**
 * The server's memory with 2,000 idle authenticated sockets: 2,000 members, each with a session,
 * each with one socket.io connection that then does nothing. `npx tsx bench/idle-sockets.ts`
 * (IDLE_SOCKETS changes the count). Goal: server RSS under 200 MB with all of them open.
 *
 * The members are copies of one signed up through the API, written straight into the server's
 * SQLite database with a session each (signing 2,000 up would time argon2, not sockets).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { createDatabase } from '../server/src/db/index.ts';
import { hashToken, newReferralCode, newToken } from '../server/src/lib/tokens.ts';
import { searchKeys } from '../server/src/members/keys.ts';
import { RESULTS_DIR, openSocket, signupBenchMember, table, writeResult } from './common.ts';
import { startCompiledServer } from './compiled-server.ts';

const COUNT = Number(process.env.IDLE_SOCKETS ?? 2_000);
const IDLE_MS = 15_000;
const BATCH = 100;

const server = await startCompiledServer('orbit-bench-sockets-');
const { pid } = server;

/** The server's resident set, from /proc (VmRSS), in MB. */
function rssMb(): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb / 1024;
}

const { userId } = await signupBenchMember(server.origin, 'bench.sockets');
const { db } = createDatabase({
  databaseUrl: undefined,
  sqlitePath: path.join(server.dataDir, 'orbit.db'),
});
const template = await db
  .selectFrom('users')
  .selectAll()
  .where('id', '=', userId)
  .executeTakeFirstOrThrow();
const now = new Date();
const expires = new Date(now.getTime() + 24 * 3_600_000).toISOString();
const tokens: string[] = [];
for (let start = 0; start < COUNT; start += BATCH) {
  const users = [];
  const sessions = [];
  for (let i = start; i < Math.min(COUNT, start + BATCH); i++) {
    const username = `idle${i}`;
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    users.push({
      ...template,
      id,
      username,
      username_key: username,
      email: `${username}@orbit.example`,
      email_key: `${username}@orbit.example`,
      referral_code: newReferralCode(),
      ...searchKeys(username, template.first_name, template.last_name),
    });
    const token = newToken();
    tokens.push(token);
    sessions.push({
      id: hashToken(token),
      user_id: id,
      remember: 0,
      created_at: now.toISOString(),
      expires_at: expires,
    });
  }
  await db.insertInto('users').values(users).execute();
  await db.insertInto('sessions').values(sessions).execute();
}
await db.destroy();

// Warm the server up with a few sockets and requests, so "before" is a server that has served.
const sockets: Socket[] = [];
const open = (token: string) => openSocket(server.origin, token);
for (const socket of await Promise.all(tokens.slice(0, 20).map(open))) socket.disconnect();
await new Promise((resolve) => setTimeout(resolve, 2_000));
const before = rssMb();

const started = performance.now();
for (let start = 0; start < COUNT; start += BATCH) {
  sockets.push(...(await Promise.all(tokens.slice(start, start + BATCH).map(open))));
}
const openMs = performance.now() - started;
const opened = rssMb();
await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
const idle = rssMb();
const connected = sockets.filter((socket) => socket.connected).length;

for (const socket of sockets) socket.disconnect();
await server.stop();

const perSocketKb = ((idle - before) * 1024) / COUNT;
const rows = [
  ['moment', 'server RSS'],
  ['before (served 20 sockets, idle 2 s)', `${before.toFixed(1)} MB`],
  [`${COUNT} sockets just opened`, `${opened.toFixed(1)} MB`],
  [`${COUNT} sockets idle ${IDLE_MS / 1000} s`, `${idle.toFixed(1)} MB`],
];
console.log(`\n${table(rows)}`);
console.log(
  `\n${connected} of ${COUNT} still connected; opened in ${(openMs / 1000).toFixed(1)} s; about ${perSocketKb.toFixed(1)} KB per socket. Goal: under 200 MB.`,
);
const file = writeResult('idle-sockets', {
  sockets: COUNT,
  connected,
  idleMs: IDLE_MS,
  rssMb: { before, opened, idle },
  perSocketKb,
});
fs.writeFileSync(
  path.join(RESULTS_DIR, 'idle-sockets.md'),
  `# Server memory with ${COUNT} idle authenticated sockets

\`npx tsx bench/idle-sockets.ts\`, ${new Date().toISOString().slice(0, 10)}: the server as \`npm run serve\`
runs it (build/server.mjs) in production mode on SQLite, ${COUNT} members with a session each, one
socket.io connection (websocket, token in the handshake) per member, opened ${BATCH} at a time,
then left idle. RSS is the server process's VmRSS from /proc.

| moment | server RSS |
|---|---|
${rows
  .slice(1)
  .map((row) => `| ${row.join(' | ')} |`)
  .join('\n')}

${connected} of ${COUNT} sockets were still connected at the end; about ${perSocketKb.toFixed(1)} KB
of RSS per socket. **${idle.toFixed(0)} MB with ${COUNT} idle sockets** (goal: under 200 MB).
`,
);
console.log(`Written to ${path.relative(process.cwd(), file)} and bench/results/idle-sockets.md`);
