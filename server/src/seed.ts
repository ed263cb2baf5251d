/**
 * `npm run seed`: adds a few demo members so Orbit can be tried at once. Each goes through the
 * same signup rules as the form (validation, hashing, avatar re-encoding). Members that already
 * exist are left as they are, so running it twice changes nothing. Passwords and security answers
 * are random and printed once, when a member is created. Demo members are never moderators and
 * never the install's first member, and NODE_ENV=production needs `--force`
 * (docs/decisions.md "Demo members").
 */
import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import { SIGNUP_INTERESTS } from '../../src/contracts/interests.ts';
import { localUrl } from '../../src/contracts/logging.ts';
import { type Config, loadConfig } from './config.ts';
import { createDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrations.ts';
import { Conflict } from './errors.ts';
import * as auth from './features/auth/service.ts';
import { createImageQueue } from './lib/images.ts';
import { createMedia, createMediaStore } from './media/index.ts';
import demoMembers from './seed-members.json' with { type: 'json' };

interface DemoMember {
  username: string;
  firstName: string;
  lastName: string;
  birthday: string;
  interests: string[];
  securityQuestion: string;
  favoriteQuote: string;
  /** Two colours of the avatar's nebula. */
  colours: [string, string];
}

/** The demo members, as data: each one's fields, and two colours for the avatar's nebula. */
const MEMBERS = demoMembers as DemoMember[];

const ALPHABET = {
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  lower: 'abcdefghijkmnopqrstuvwxyz',
  digit: '23456789',
  symbol: '!#%*+-=?@',
};

const pick = (set: string) => set[randomInt(set.length)] ?? '';

/** 14 characters with at least one of each class the password policy asks for. */
function newPassword(): string {
  const all = Object.values(ALPHABET).join('');
  const chars = [
    ...Object.values(ALPHABET).map(pick),
    ...Array.from({ length: 10 }, () => pick(all)),
  ];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}

/**
 * Three groups of four lower-case letters and digits (about 59 bits), such as `k7q2-m9xd-3wpa`:
 * answers compare without case, so what is printed is what to type.
 */
function newSecurityAnswer(): string {
  const set = ALPHABET.lower + ALPHABET.digit;
  return Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => pick(set)).join('')).join(
    '-',
  );
}

/** Initials on a nebula-like gradient with a scatter of stars, drawn locally. */
function avatar(member: DemoMember): Promise<Buffer> {
  const [glow, deep] = member.colours;
  const initials = `${member.firstName[0] ?? ''}${member.lastName[0] ?? ''}`.toUpperCase();
  let seed = [...member.username].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) >>> 0;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) % 10_000) / 10_000;
  const stars = Array.from(
    { length: 40 },
    () =>
      `<circle cx="${(random() * 512).toFixed(1)}" cy="${(random() * 512).toFixed(1)}" r="${(0.6 + random() * 1.8).toFixed(1)}" fill="#fff" fill-opacity="${(0.35 + random() * 0.6).toFixed(2)}"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <defs>
    <radialGradient id="nebula" cx="0.3" cy="0.25" r="0.95">
      <stop offset="0" stop-color="${glow}"/>
      <stop offset="0.55" stop-color="${deep}"/>
      <stop offset="1" stop-color="#05060f"/>
    </radialGradient>
    <radialGradient id="haze" cx="0.8" cy="0.85" r="0.5">
      <stop offset="0" stop-color="${glow}" stop-opacity="0.45"/>
      <stop offset="1" stop-color="${glow}" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="512" height="512" fill="url(#nebula)"/>
  <rect width="512" height="512" fill="url(#haze)"/>
  ${stars}
  <text x="256" y="256" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"
    font-size="200" font-weight="700" fill="#ffffff" fill-opacity="0.95">${initials}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Where members open Orbit: PUBLIC_URL when set, else the server's port on this machine. */
function appUrl(config: Config): string {
  return config.publicUrl?.replace(/\/+$/, '') ?? localUrl(config.host, config.port);
}

const USAGE = 'Usage: npm run seed [-- --force]';

/**
 * Whether to go on: the arguments are `--force` or nothing, and NODE_ENV=production (as
 * deploy/orbit.env sets it) needs `--force`. Anything else is said on one line, with the exit code.
 */
function mayRun(args: string[], env: string | undefined): { exitCode: number } | undefined {
  const force = args.length === 1 && args[0] === '--force';
  if (args.length > 0 && !force) {
    console.error(USAGE);
    return { exitCode: 2 };
  }
  if (env === 'production' && !force) {
    console.error(
      'npm run seed adds demo members whose passwords it prints, so it does not run with ' +
        'NODE_ENV=production; to add them anyway: npm run seed -- --force',
    );
    return { exitCode: 1 };
  }
  return undefined;
}

async function main(): Promise<number> {
  const refused = mayRun(process.argv.slice(2), process.env.NODE_ENV);
  if (refused) return refused.exitCode;
  const config = loadConfig();
  const { db, dialect } = createDatabase(config);
  await migrateToLatest(db);
  const store = await createMediaStore(config);
  const media = createMedia(store, config.mediaPublicUrl, {
    warn: (details, message) => console.warn(message, details),
  });
  // One member at a time: one picture at a time, and nothing waits.
  const images = createImageQueue({ workers: 1, waiting: 0 });
  const deps: auth.AvatarDeps = { db, media, session: config.session, images };
  const where = dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : config.sqlitePath;
  console.log(`Seeding demo members into ${where}\n`);

  const header = ['username', 'password', 'security answer', 'email'];
  const rows: string[][] = [];
  try {
    for (const member of MEMBERS) {
      const email = `${member.username}@orbit.example`;
      if (!(await auth.isUsernameAvailable(deps, member.username))) {
        rows.push([member.username, '(exists, unchanged)', '', email]);
        continue;
      }
      const password = newPassword();
      const securityAnswer = newSecurityAnswer();
      try {
        const { session } = await auth.signup(
          deps,
          {
            username: member.username,
            email,
            password,
            firstName: member.firstName,
            lastName: member.lastName,
            birthday: member.birthday,
            referral: '',
            interests: member.interests.filter((interest) => SIGNUP_INTERESTS.includes(interest)),
            securityQuestion: member.securityQuestion,
            securityAnswer,
            favoriteQuote: member.favoriteQuote,
          },
          await avatar(member),
          { demo: true },
        );
        // Signing up also signs in; the seed keeps no session.
        await auth.logout(deps, session.sessionId);
        rows.push([member.username, password, securityAnswer, email]);
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
        rows.push([member.username, `(skipped: ${error.message})`, '', email]);
      }
    }
  } finally {
    await db.destroy();
    store.close();
  }

  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((row) => row[i]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('   ')
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
  console.log(`\nLog in at ${appUrl(config)}/landing with a username (or email) and its password.`);
  console.log('Forgot password asks for the security answer printed beside it.');
  console.log(
    'Demo members are never moderators: the first member to sign up on a fresh install is one, ' +
      'or name one with npm run moderator -- add <username>.',
  );
  return 0;
}

process.exitCode = await main();
