import { afterAll, beforeAll } from 'vitest';
import { type TestApp, type TestDialect, useTestApp } from './helpers.ts';
import { type LocalS3, startS3rver } from './s3-helpers.ts';

/** A local S3 server for this test file, stopped after it. */
export async function useLocalS3(): Promise<LocalS3> {
  const s3 = await startS3rver();
  afterAll(() => s3.close());
  return s3;
}

/**
 * useTestApp with its pictures in a fresh bucket of `s3`, named `${prefix}-${dialect}`;
 * `bucket()` names it once the suite has started.
 */
export function useTestAppOnS3(
  s3: LocalS3,
  dialect: TestDialect,
  prefix: string,
): { t: TestApp; bucket: () => string } {
  const env: Record<string, string> = {};
  let bucket = '';
  beforeAll(async () => {
    bucket = await s3.createBucket(`${prefix}-${dialect}`);
    Object.assign(env, s3.env(bucket));
  });
  return { t: useTestApp(dialect, env), bucket: () => bucket };
}
