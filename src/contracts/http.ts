/** Answers every call may give (docs/product.md "Errors"): one schema each, shared by server and client. */
import { z } from './zod.ts';

/** Every failure: `{error}` in the member's words, with the status. */
export const ErrorBody = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A write that has nothing else to tell. */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;
