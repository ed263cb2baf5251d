import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_HEADER } from '../../../src/contracts/constants.ts';
import { AppError, Conflict, Invalid } from '../errors.ts';
import { fingerprint } from '../lib/fingerprint.ts';
import { sweepEvery } from '../lib/sweep.ts';
import {
  type StoredAnswer,
  claimKey,
  deleteExpiredKeys,
  releaseKey,
  storeAnswer,
} from '../members/idempotencyKeys.ts';

/** Node names headers in lower case (draft-ietf-httpapi-idempotency-key-header). */
const HEADER = IDEMPOTENCY_HEADER.toLowerCase();

export const IDEMPOTENCY_TEXTS = {
  invalid: 'The Idempotency-Key header must be 1 to 255 visible characters.',
  mismatch:
    'This Idempotency-Key was already used for a different request. Send a new request with a new key.',
  running: 'A request with this Idempotency-Key is still being processed. Try again in a moment.',
} as const;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const KEY_SWEEP_MS = 60 * 60 * 1000;

interface KeyInUse {
  key: string;
  /** Set once this request holds the key: its answer is stored under it. */
  claim?: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's Idempotency-Key on an outbox route, once checked; null without one. */
    idempotency: KeyInUse | null;
  }
  interface FastifyInstance {
    idempotency: {
      /**
       * For an outbox route whose handler reads a multipart form itself: claims the request's
       * key with the form's digest once the form is read. True when the answer was sent (the
       * first one's, stored): the handler then returns `reply` and does nothing.
       */
      claimForm(request: FastifyRequest, reply: FastifyReply, digest: string): Promise<boolean>;
    };
  }
}

/**
 * The key as the client sent it: the draft's structured-field string (`"…"`), or bare as most
 * clients send it. Undefined without the header; a 400 for anything else.
 */
function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[HEADER];
  if (header === undefined) return undefined;
  const raw = Array.isArray(header) ? header.join(', ') : header;
  const key = /^".*"$/.test(raw) ? raw.slice(1, -1) : raw;
  if (!KEY_PATTERN.test(key)) throw new Invalid(IDEMPOTENCY_TEXTS.invalid);
  return key;
}

/** The call a key was used for: method, route, path parameters and the body (or the form's digest). */
function fingerprintOf(request: FastifyRequest, body: unknown): string {
  return fingerprint([
    request.method,
    request.routeOptions.url,
    request.params ?? null,
    body ?? null,
  ]);
}

/** Answers that are not kept: a server failure, or a refusal that says "later". */
function keeps(status: number): boolean {
  return status < 500 && status !== 408 && status !== 429;
}

/**
 * docs/decisions.md "Idempotency keys": the writes marked `outbox` in the endpoint table honour
 * an `Idempotency-Key`. The first request with a key runs and its answer is stored; the same call
 * sent again with the key gets that answer and changes nothing; another call with the key is a
 * 422, and one while the first still runs a 409. Keys belong to the member and last 24 hours.
 * Register it before compression, so the stored answer is the JSON text.
 */
export const idempotencyPlugin = fp(
  (app, _options, done) => {
    const { db } = app;
    app.decorateRequest('idempotency', null);
    sweepEvery(app, KEY_SWEEP_MS, 'idempotency key sweep', () => deleteExpiredKeys(db, Date.now()));

    /** Claims the request's key; true when an answer was sent instead of running the call. */
    async function claim(
      request: FastifyRequest,
      reply: FastifyReply,
      inUse: KeyInUse,
      body: unknown,
    ): Promise<boolean> {
      const memberId = request.member.user.id;
      const outcome = await claimKey(db, {
        memberId,
        key: inUse.key,
        fingerprint: fingerprintOf(request, body),
        claim: randomUUID(),
        now: Date.now(),
      });
      switch (outcome.kind) {
        case 'run':
          inUse.claim = outcome.claim;
          return false;
        case 'mismatch':
          throw new AppError(422, IDEMPOTENCY_TEXTS.mismatch);
        case 'running':
          throw new Conflict(IDEMPOTENCY_TEXTS.running);
        case 'replay':
          send(reply, outcome.answer);
          return true;
      }
    }

    function send(reply: FastifyReply, answer: StoredAnswer): void {
      reply.code(answer.status);
      if (answer.contentType) reply.header('content-type', answer.contentType);
      void reply.send(answer.body);
    }

    app.decorate('idempotency', {
      async claimForm(request: FastifyRequest, reply: FastifyReply, digest: string) {
        const inUse = request.idempotency;
        if (!inUse) return false;
        return claim(request, reply, inUse, { form: digest });
      },
    });

    // After validation, so a refused body never takes a key; the member is known by then.
    app.addHook('preHandler', async (request, reply) => {
      const kind = request.routeOptions.config.outbox;
      if (!kind) return;
      const key = keyOf(request);
      if (key === undefined) return;
      const inUse: KeyInUse = { key };
      request.idempotency = inUse;
      // A form is claimed by its handler once read (claimForm): its digest needs its bytes.
      if (kind === 'form') return;
      if (await claim(request, reply, inUse, request.body)) return reply;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const inUse = request.idempotency;
      if (!inUse?.claim) return payload;
      const owner = { memberId: request.member.user.id, key: inUse.key, claim: inUse.claim };
      inUse.claim = undefined;
      const status = reply.statusCode;
      const body =
        payload === null || payload === undefined
          ? ''
          : typeof payload === 'string'
            ? payload
            : Buffer.isBuffer(payload)
              ? payload.toString('utf8')
              : undefined;
      try {
        if (keeps(status) && body !== undefined) {
          const contentType = reply.getHeader('content-type');
          await storeAnswer(db, owner, {
            status,
            contentType: typeof contentType === 'string' ? contentType : null,
            body,
          });
        } else {
          await releaseKey(db, owner);
        }
      } catch (error) {
        // The answer still goes out; the row stays running until it is taken to be abandoned.
        request.log.warn({ err: error }, 'could not store the answer of an idempotency key');
      }
      return payload;
    });
    done();
  },
  { name: 'orbit-idempotency', dependencies: ['orbit-database'] },
);
