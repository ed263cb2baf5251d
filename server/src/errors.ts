/** What an error adds to its status and message: Retry-After, its cause, and how it is logged. */
interface AppErrorOptions {
  retryAfterSeconds?: number;
  cause?: unknown;
  log?: { level: 'warn' | 'error'; reason: string };
}

/** Typed errors thrown by services; the error plugin turns each into `{error}` with its status. */
export class AppError extends Error {
  /** Sent as Retry-After, in seconds, when set. */
  retryAfterSeconds: number | undefined;
  /**
   * Written to the log by the error handler, with the cause; the answer carries only the message.
   * Unset: not logged (the member's own mistake, or logged where it happened).
   */
  log: AppErrorOptions['log'];

  constructor(
    readonly statusCode: number,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.log = options.log;
  }
}

export class Invalid extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'Please sign in.') {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'Not allowed.') {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooLarge extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
export class UnsupportedMedia extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
export class TooManyRequests extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { retryAfterSeconds });
  }
}
/** A failure of the server's own (a folder it cannot write): logged with its cause at error. */
export class ServerFailure extends AppError {
  constructor(message: string, cause: unknown, reason: string) {
    super(500, message, { cause, log: { level: 'error', reason } });
  }
}
/** What a member reads when the server has more work than it can take right now. */
export const BUSY = 'Orbit is busy. Try again in a moment.';

export class Unavailable extends AppError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(503, message, options);
  }
}
/** The disk (or quota) is full: logged with its cause at error. */
export class InsufficientStorage extends AppError {
  constructor(message: string, cause: unknown, reason: string) {
    super(507, message, { cause, log: { level: 'error', reason } });
  }
}
/** Too many guesses or sign-in attempts, in the limiters' one wording. */
export class TooManyAttempts extends TooManyRequests {
  constructor(retryAfterSeconds: number) {
    super(`Too many attempts. Try again in ${retryAfterSeconds} seconds.`, retryAfterSeconds);
  }
}
