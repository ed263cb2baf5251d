/**
 * Reading settings from the environment, alike in the server and push-relay
 * (docs/configuration.md "Server settings", "Push relay settings").
 */
import { z } from './zod.ts';

/**
 * A transform of a setting's text by `parse`: what it throws becomes the setting's problem, so
 * every wrong setting is named at once.
 */
export function parsedWith<T>(parse: (value: string) => T) {
  return (value: string, context: z.core.ParsePayload): T => {
    try {
      return parse(value);
    } catch (error) {
      context.issues.push({ code: 'custom', input: value, message: (error as Error).message });
      return z.NEVER;
    }
  };
}

/**
 * The settings `schema` reads from `env`. An empty variable means "not set", as a blank line in an
 * environment file does. When any is wrong, throws a `Failure` that says `Invalid ${what}:` and
 * then the problems, one `NAME: message` a line.
 */
export function readSettings<S extends z.core.$ZodType>(
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
  what: string,
  Failure: new (message: string) => Error = Error,
): z.infer<S> {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = z.safeParse(schema, given);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Failure(`Invalid ${what}:\n  ${problems.join('\n  ')}`);
}
