/**
 * The stored answers of writes sent with an `Idempotency-Key`
 * (docs/decisions.md "Idempotency keys"). A row per member and key in the shared database:
 * inserting it first is the lock every node agrees on, so of two requests with one key only one
 * runs, whichever node each reaches.
 */
import { changedAny, rowsChanged } from '../db/changes.ts';
import type { Db } from '../db/index.ts';

/** A key is remembered this long after its first use; after that it is a new key. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * A request still running after this long is taken to have died with its node (a crash between
 * the claim and the answer): the next request with the key runs the call again.
 */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** What a request with a key does: run the call, answer what was stored, or be refused. */
export type Claim =
  | { kind: 'run'; claim: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'running' }
  | { kind: 'mismatch' };

interface ClaimRequest {
  memberId: string;
  key: string;
  fingerprint: string;
  /** The random token that marks the row as this request's. */
  claim: string;
  now: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function inserted(db: Db, request: ClaimRequest): Promise<boolean> {
  return db
    .insertInto('idempotency_keys')
    .values({
      member_id: request.memberId,
      key: request.key,
      fingerprint: request.fingerprint,
      claim: request.claim,
      status: null,
      content_type: null,
      body: null,
      created_at: iso(request.now),
    })
    .onConflict((conflict) => conflict.columns(['member_id', 'key']).doNothing())
    .returning('claim')
    .executeTakeFirst()
    .then((row) => row !== undefined);
}

/**
 * Claims `key` for one request: a first use inserts the row and runs; a key in use answers what
 * its row says. An expired row is removed and the key claimed afresh; a running row older than
 * ABANDONED_AFTER_MS is taken over. Each change is conditional on the row read, so two requests
 * racing for one row never both run.
 */
export async function claimKey(db: Db, request: ClaimRequest): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await inserted(db, request)) return { kind: 'run', claim: request.claim };
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('member_id', '=', request.memberId)
      .where('key', '=', request.key)
      .executeTakeFirst();
    if (!row) continue;
    const age = request.now - Date.parse(row.created_at);
    if (age >= KEY_LIFETIME_MS) {
      await releaseKey(db, { memberId: row.member_id, key: row.key, claim: row.claim });
      continue;
    }
    if (row.fingerprint !== request.fingerprint) return { kind: 'mismatch' };
    if (row.status !== null) {
      return {
        kind: 'replay',
        answer: { status: row.status, contentType: row.content_type, body: row.body ?? '' },
      };
    }
    if (age < ABANDONED_AFTER_MS) return { kind: 'running' };
    const taken = await changedAny(
      db
        .updateTable('idempotency_keys')
        .set({ claim: request.claim, created_at: iso(request.now) })
        .where('member_id', '=', row.member_id)
        .where('key', '=', row.key)
        .where('claim', '=', row.claim)
        .where('status', 'is', null),
    );
    if (taken) return { kind: 'run', claim: request.claim };
  }
  // Another request changed the row each time it was read: it is being used right now.
  return { kind: 'running' };
}

/** Stores the answer of the request holding `claim`; false when it no longer holds the key. */
export function storeAnswer(
  db: Db,
  owner: { memberId: string; key: string; claim: string },
  answer: StoredAnswer,
): Promise<boolean> {
  return changedAny(
    db
      .updateTable('idempotency_keys')
      .set({ status: answer.status, content_type: answer.contentType, body: answer.body })
      .where('member_id', '=', owner.memberId)
      .where('key', '=', owner.key)
      .where('claim', '=', owner.claim),
  );
}

/** Gives the key up (an answer not to keep): the next request with it runs the call again. */
export async function releaseKey(
  db: Db,
  owner: { memberId: string; key: string; claim: string },
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('member_id', '=', owner.memberId)
    .where('key', '=', owner.key)
    .where('claim', '=', owner.claim)
    .execute();
}

/** Removes the keys used more than KEY_LIFETIME_MS before `now`; answers how many. */
export function deleteExpiredKeys(db: Db, now: number): Promise<number> {
  return rowsChanged(
    db.deleteFrom('idempotency_keys').where('created_at', '<=', iso(now - KEY_LIFETIME_MS)),
  );
}
