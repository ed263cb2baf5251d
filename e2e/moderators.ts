import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type APIRequestContext, expect } from '@playwright/test';
import { type Member, createMember } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/**
 * Makes the member a moderator as an operator would, with `npm run moderator -- add <username>`
 * on the e2e server's data directory (playwright.config.ts). The command writes the SQLite file the
 * running server uses (WAL, with a busy timeout); the server reads `is_moderator` from the database
 * on every moderation call and for every session it has not remembered yet, so a login after this
 * sees a moderator.
 */
export async function makeModerator(member: Member): Promise<void> {
  const dataDir = process.env.ORBIT_E2E_DATA_DIR;
  if (!dataDir) throw new Error('ORBIT_E2E_DATA_DIR is not set (see playwright.config.ts)');
  const { stdout } = await run(
    'npm',
    ['run', '--silent', 'moderator', '--', 'add', member.username],
    {
      cwd: root,
      // What the server gets (playwright.config.ts webServer.env), so the same database.
      env: { ...process.env, DATA_DIR: dataDir },
    },
  );
  expect(stdout).toContain(`${member.username} is a moderator.`);
}

/** A member made a moderator before they first log in. */
export async function createModerator(
  request: APIRequestContext,
  baseURL: string,
): Promise<Member> {
  const member = await createMember(request, baseURL);
  await makeModerator(member);
  return member;
}

/**
 * A member who is surely no moderator. Only the first member of a fresh install becomes one by
 * signing up, and the specs share one server in any order: once another signup has finished, the
 * next one is never the first.
 */
export async function createOrdinaryMember(
  request: APIRequestContext,
  baseURL: string,
): Promise<Member> {
  await createMember(request, baseURL);
  return createMember(request, baseURL);
}
