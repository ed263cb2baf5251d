import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Writes a self-signed EC certificate and its key, made by the openssl CLI, to `cert.pem` and
 * `key.pem` in `dir`; `altNames` as openssl's subjectAltName takes them (`DNS:…,IP:…`).
 */
export function writeSelfSignedCertificate(
  dir: string,
  commonName: string,
  altNames: string,
): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      `subjectAltName=${altNames}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}
