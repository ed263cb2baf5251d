/** Typed errors thrown by services; the error plugin turns each into `{error}` with its status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
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
export class Unavailable extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}
