import { HttpError } from '../../lib/http.ts';

/** docs/product.md "Errors": the server's text, else `Login failed ({status})`, else `Login failed.` */
export function loginErrorText(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status > 0) return `Login failed (${error.status})`;
  }
  return 'Login failed.';
}

/** docs/product.md "Errors": the server's error, else `Signup failed ({status})`. */
export function signupErrorText(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status > 0) return `Signup failed (${error.status})`;
  }
  return 'Signup failed. Check your connection and try again.';
}
