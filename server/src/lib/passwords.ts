import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (a const enum the compiler cannot inline here). OWASP's argon2id baseline: 19 MiB, two passes, one lane.
const OPTIONS = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, OPTIONS);
}

export async function verifySecret(storedHash: string, secret: string): Promise<boolean> {
  if (!storedHash) return false;
  try {
    return await verify(storedHash, secret);
  } catch {
    return false;
  }
}

/** A real hash of nothing in particular, verified when no account matches so timing tells nothing. */
let decoy: Promise<string> | undefined;
export async function verifyDecoy(secret: string): Promise<void> {
  decoy ??= hashSecret('orbit-decoy-secret');
  await verifySecret(await decoy, secret);
}

/** Security answers compare case- and space-insensitively. */
export function normaliseAnswer(answer: string): string {
  return answer.trim().replace(/\s+/g, ' ').toLowerCase();
}
