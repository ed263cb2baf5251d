import fs from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { RelayConfigError } from './config.ts';
import { createFileAtomic } from './files.ts';

export interface VapidKeys {
  /** base64url, an uncompressed P-256 point (65 bytes). */
  publicKey: string;
  /** base64url, the 32-byte private scalar. */
  privateKey: string;
}

const VAPID_FILE = 'vapid.json';

const base64url = /^[A-Za-z0-9_-]+$/;
const KeysSchema = z.object({
  publicKey: z
    .string()
    .regex(base64url)
    .refine((key) => Buffer.from(key, 'base64url').length === 65, 'a 65-byte P-256 point'),
  privateKey: z
    .string()
    .regex(base64url)
    .refine((key) => Buffer.from(key, 'base64url').length === 32, 'a 32-byte P-256 key'),
});

function checked(keys: unknown, source: string): VapidKeys {
  const parsed = KeysSchema.safeParse(keys);
  if (!parsed.success)
    throw new RelayConfigError(
      `${source} does not hold a VAPID key pair (${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')})`,
    );
  return parsed.data;
}

/**
 * The relay's VAPID key pair: the configured one, else the one kept in the data directory, else a
 * new one saved there (readable by the relay's user only). Keeping it matters: every browser
 * subscription is bound to the public key it was made with.
 */
export async function loadVapidKeys(
  configured: VapidKeys | undefined,
  dataDir: string,
): Promise<{ keys: VapidKeys; source: 'environment' | 'file' | 'generated'; file?: string }> {
  if (configured)
    return {
      keys: checked(configured, 'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY'),
      source: 'environment',
    };
  const file = path.join(dataDir, VAPID_FILE);
  let text: string | undefined;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) return { keys: stored(text, file), source: 'file', file };
  const generated = webpush.generateVAPIDKeys();
  const keys = { publicKey: generated.publicKey, privateKey: generated.privateKey };
  await fs.mkdir(dataDir, { recursive: true });
  if (await createFileAtomic(file, `${JSON.stringify(keys, null, 2)}\n`, 0o600))
    return { keys, source: 'generated', file };
  // Another relay on this data directory made its pair first: every relay must sign with one.
  return { keys: stored(await fs.readFile(file, 'utf8'), file), source: 'file', file };
}

function stored(text: string, file: string): VapidKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RelayConfigError(`${file} is not valid JSON; fix or remove it`);
  }
  return checked(parsed, file);
}
