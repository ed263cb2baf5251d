/**
 * What a push service and a browser do with a Web Push request, written from the RFCs with
 * node:crypto alone: check the VAPID authorization (RFC 8292) and decrypt an aes128gcm body
 * (RFC 8291 on top of RFC 8188).
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, verify } from 'node:crypto';

const b64 = (value: string) => Buffer.from(value, 'base64url');

/** A P-256 public key object from its uncompressed point (0x04 || x || y). */
function p256PublicKey(point: Buffer) {
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('not an uncompressed P-256 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub?: string;
}

/**
 * Checks `Authorization: vapid t=<jwt>, k=<key>`: an ES256 JWT signed by `k`, for this push
 * service's origin, not expired and expiring within 24 hours. Throws with the reason otherwise.
 */
export function verifyVapid(
  authorization: string | undefined,
  origin: string,
  nowSeconds = Date.now() / 1000,
): { publicKey: string; claims: VapidClaims } {
  const match = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw new Error('no vapid authorization');
  const params = new Map(
    match[1].split(',').map((part) => {
      const [name = '', ...rest] = part.trim().split('=');
      return [name.trim(), rest.join('=').trim()] as const;
    }),
  );
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) throw new Error('vapid authorization without t or k');
  const [headerPart, claimsPart, signaturePart, extra] = token.split('.');
  if (!headerPart || !claimsPart || !signaturePart || extra !== undefined)
    throw new Error('t is not a JWS compact token');
  const header = JSON.parse(b64(headerPart).toString('utf8')) as { alg?: string };
  if (header.alg !== 'ES256') throw new Error(`JWT alg is ${header.alg}, not ES256`);
  const signature = b64(signaturePart);
  if (signature.length !== 64) throw new Error('ES256 signature is not 64 bytes');
  const signed = verify(
    'sha256',
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: p256PublicKey(b64(key)), dsaEncoding: 'ieee-p1363' },
    signature,
  );
  if (!signed) throw new Error('JWT signature does not match k');
  const claims = JSON.parse(b64(claimsPart).toString('utf8')) as VapidClaims;
  if (claims.aud !== origin) throw new Error(`JWT aud ${claims.aud} is not ${origin}`);
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) throw new Error('JWT expired');
  if (claims.exp > nowSeconds + 24 * 3600) throw new Error('JWT exp is more than 24 h away');
  return { publicKey: key, claims };
}

/** The receiving side of a subscription: the browser's key pair and auth secret. */
export interface ReceiverKeys {
  /** Raw 32-byte P-256 private key. */
  privateKey: Buffer;
  /** Uncompressed P-256 point. */
  publicKey: Buffer;
  /** 16 random bytes. */
  authSecret: Buffer;
}

export function newReceiverKeys(authSecret: Buffer): ReceiverKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { privateKey: ecdh.getPrivateKey(), publicKey: ecdh.getPublicKey(), authSecret };
}

const TAG_LENGTH = 16;

/** Decrypts an `aes128gcm` Web Push body (RFC 8291 §3.4, RFC 8188 §2). */
export function decryptAes128gcm(body: Buffer, receiver: ReceiverKeys): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65) throw new Error('keyid is not the sender public key (65 bytes)');
  if (recordSize < 18) throw new Error('record size too small');

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(receiver.privateKey);
  const sharedSecret = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, receiver.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));

  const records = body.subarray(21 + idLength);
  const plain: Buffer[] = [];
  for (let offset = 0, sequence = 0; offset < records.length; offset += recordSize, sequence++) {
    const record = records.subarray(offset, offset + recordSize);
    const nonce = Buffer.from(baseNonce);
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ sequence) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_LENGTH));
    const padded = Buffer.concat([
      decipher.update(record.subarray(0, record.length - TAG_LENGTH)),
      decipher.final(),
    ]);
    const last = offset + recordSize >= records.length;
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const delimiter = padded[end];
    if (delimiter !== (last ? 2 : 1)) throw new Error(`record ${sequence}: bad padding delimiter`);
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain);
}
