/** Upload test helpers: an app whose log the test reads, and uploads held open mid-body. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { Config } from '../src/config.ts';
import { type FilePart, type Member, ORIGIN, asBearer, multipart } from './factories.ts';
import { type TestDialect, useTestApp } from './helpers.ts';

/** One line the server logged, as pino wrote it. */
export interface LogEntry {
  level: number;
  msg: string;
  code?: string;
  err?: { code?: string; message?: string };
  [key: string]: unknown;
}
export const WARN = 40;
export const ERROR = 50;

export interface LoggedApp {
  app: FastifyInstance;
  config: Config;
  /** Every entry logged at warn or above so far. */
  logs(): LogEntry[];
}

/**
 * Builds the app before the suite (as useTestApp does) with its warnings and errors kept for the
 * test to read; `env` overrides the settings.
 */
export function useLoggedApp(dialect: TestDialect, env: Record<string, string> = {}): LoggedApp {
  const lines: string[] = [];
  const t = useTestApp(
    dialect,
    { LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
    { logStream: { write: (line: string) => lines.push(line) } },
  );
  return Object.assign(t, { logs: () => lines.map((line) => JSON.parse(line) as LogEntry) });
}

/** A noisy picture of some 100 kB: a body held halfway stops inside it, and a one-page disk can't hold it. */
export async function noisyPhoto(): Promise<FilePart> {
  const data = await sharp({
    create: {
      width: 200,
      height: 150,
      channels: 3,
      background: '#888',
      noise: { type: 'gaussian', mean: 128, sigma: 50 },
    },
  })
    .png()
    .toBuffer();
  return { data, filename: 'photo.png', type: 'image/png' };
}

/** An upload whose body has only partly arrived: the server is reading it until `finish()`. */
export interface HeldUpload {
  response: Promise<LightMyRequestResponse>;
  /** Sends the rest of the body; the answer follows. */
  finish(): Promise<LightMyRequestResponse>;
}

/**
 * Starts a multipart request whose body stops halfway through the file, so the upload stays in
 * progress on the server until `finish()`.
 */
export async function holdUpload(
  app: FastifyInstance,
  request: {
    method: 'POST' | 'PATCH';
    url: string;
    headers: Record<string, string>;
    remoteAddress?: string;
  },
  fields: Record<string, string | FilePart | undefined>,
): Promise<HeldUpload> {
  const { payload, headers } = await multipart(fields);
  const body = new PassThrough();
  const half = Math.floor(payload.length / 2);
  body.write(payload.subarray(0, half));
  const response = app.inject({
    method: request.method,
    url: request.url,
    headers: { ...headers, ...request.headers },
    payload: body,
    ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
  });
  return {
    response,
    finish() {
      body.end(payload.subarray(half));
      return response;
    },
  };
}

/** POST /api/gallery held open mid-file (see holdUpload). */
export function holdGalleryUpload(
  app: FastifyInstance,
  member: Member,
  file: FilePart,
): Promise<HeldUpload> {
  return holdUpload(
    app,
    { method: 'POST', url: '/api/gallery', headers: asBearer(member) },
    { image: file },
  );
}

/** POST /api/auth/signup from `remoteAddress`, held open mid-picture. */
export function holdSignup(
  app: FastifyInstance,
  remoteAddress: string,
  fields: Record<string, string | FilePart | undefined>,
): Promise<HeldUpload> {
  return holdUpload(
    app,
    { method: 'POST', url: '/api/auth/signup', headers: { origin: ORIGIN }, remoteAddress },
    fields,
  );
}

/** The request bodies being received now: the temporary files in the incoming folder. */
export async function incomingFiles(uploadsDir: string): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(uploadsDir, '.incoming'))).filter((name) =>
      name.endsWith('.upload'),
    );
  } catch {
    return [];
  }
}
