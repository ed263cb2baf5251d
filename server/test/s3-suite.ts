import { afterAll } from 'vitest';
import { type LocalS3, startS3rver } from './s3-helpers.ts';

/** A local S3 server for this test file, stopped after it. */
export async function useLocalS3(): Promise<LocalS3> {
  const s3 = await startS3rver();
  afterAll(() => s3.close());
  return s3;
}
