import { randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { decryptAes128gcm, newReceiverKeys, verifyVapid } from './push-crypto.ts';

const origin = 'https://push.example.net';
const vapid = webpush.generateVAPIDKeys();

function vapidHeader(audience = origin, expiration?: number): string {
  const headers = webpush.getVapidHeaders(
    audience,
    'mailto:ops@orbit.example',
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm',
    expiration,
  );
  return headers.Authorization;
}

/** What web-push sends a device with these keys. */
const encryptFor = (device: ReturnType<typeof newReceiverKeys>, text: string) =>
  webpush.encrypt(
    device.publicKey.toString('base64url'),
    device.authSecret.toString('base64url'),
    text,
    'aes128gcm',
  );

describe('the fake push service crypto, checked against web-push', () => {
  it('decrypts what web-push encrypts with aes128gcm', () => {
    const receiver = newReceiverKeys(randomBytes(16));
    const text = JSON.stringify({ hello: 'Orbit', emoji: '🚀' });
    const encrypted = encryptFor(receiver, text);
    expect(decryptAes128gcm(encrypted.cipherText, receiver).toString('utf8')).toBe(text);
  });

  it('refuses a body encrypted for another device', () => {
    const receiver = newReceiverKeys(randomBytes(16));
    const other = newReceiverKeys(randomBytes(16));
    const encrypted = encryptFor(other, 'secret');
    expect(() => decryptAes128gcm(encrypted.cipherText, receiver)).toThrow();
  });

  it('refuses a body changed on the way', () => {
    const receiver = newReceiverKeys(randomBytes(16));
    const encrypted = encryptFor(receiver, 'friend request');
    const body = Buffer.from(encrypted.cipherText);
    body[body.length - 20] = (body[body.length - 20] ?? 0) ^ 1;
    expect(() => decryptAes128gcm(body, receiver)).toThrow();
  });

  it('accepts a VAPID header that web-push signs for this origin', () => {
    const checked = verifyVapid(vapidHeader(), origin);
    expect(checked.publicKey).toBe(vapid.publicKey);
    expect(checked.claims.aud).toBe(origin);
  });

  it('refuses a VAPID token for another origin', () => {
    expect(() => verifyVapid(vapidHeader('https://elsewhere.example'), origin)).toThrow(/aud/);
  });

  it('refuses an expired VAPID token and one that lives over 24 hours', () => {
    const header = vapidHeader(origin, Math.floor(Date.now() / 1000) + 60);
    expect(() => verifyVapid(header, origin, Date.now() / 1000 + 120)).toThrow(/expired/);
    expect(() => verifyVapid(header, origin, Date.now() / 1000 - 24 * 3600)).toThrow(/24 h/);
  });

  it('refuses a VAPID token signed by another key', () => {
    const other = webpush.generateVAPIDKeys();
    const forged = vapidHeader().replace(/k=[\w-]+/, `k=${other.publicKey}`);
    expect(() => verifyVapid(forged, origin)).toThrow(/signature/);
  });
});
