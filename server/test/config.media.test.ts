/** The media settings: S3_* turns the bucket on, MEDIA_* shape URLs and the sweep; bad values stop start-up. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

const BASE = { DATA_DIR: '/tmp/orbit-config-test' };
const load = (env: Record<string, string>) => loadConfig({ ...BASE, ...env });

describe('media settings', () => {
  it('keeps pictures on disk when S3_BUCKET is unset or empty', () => {
    expect(load({}).media.s3).toBeUndefined();
    expect(load({ S3_BUCKET: '' }).media.s3).toBeUndefined();
  });

  it('turns S3 on with S3_BUCKET and reads every S3 setting', () => {
    const config = load({
      S3_BUCKET: 'orbit-media',
      S3_ENDPOINT: 'https://minio.example:9000/',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });

    expect(config.media.s3).toEqual({
      bucket: 'orbit-media',
      endpoint: 'https://minio.example:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('defaults to AWS in us-east-1, virtual-hosted buckets and the SDK’s own credentials', () => {
    expect(load({ S3_BUCKET: 'orbit-media' }).media.s3).toEqual({
      bucket: 'orbit-media',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it('hands MEDIA_PUBLIC_URL on without a trailing slash, and nothing when unset', () => {
    expect(load({ MEDIA_PUBLIC_URL: 'https://cdn.orbit.example/media/' }).mediaPublicUrl).toBe(
      'https://cdn.orbit.example/media',
    );
    expect(load({}).mediaPublicUrl).toBeUndefined();
  });

  it('sweeps every 10 minutes unless told otherwise', () => {
    expect(load({}).media.sweepIntervalMs).toBe(600_000);
    expect(load({ MEDIA_SWEEP_INTERVAL_MINUTES: '2.5' }).media.sweepIntervalMs).toBe(150_000);
  });

  it.each([
    [{ S3_BUCKET: 'orbit-media', S3_ACCESS_KEY_ID: 'id' }, /S3_SECRET_ACCESS_KEY: .*together/],
    [{ S3_BUCKET: 'orbit-media', S3_SECRET_ACCESS_KEY: 'secret' }, /S3_ACCESS_KEY_ID: .*together/],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_ENDPOINT: .*S3_BUCKET is not/],
    [{ S3_BUCKET: 'Orbit_Media' }, /S3_BUCKET: .*lower-case/],
    [{ S3_BUCKET: 'orbit-media', S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT: .*http/],
    [{ S3_BUCKET: 'orbit-media', S3_FORCE_PATH_STYLE: 'maybe' }, /S3_FORCE_PATH_STYLE/],
    [{ S3_BUCKET: 'orbit-media', S3_REGION: 'EU West' }, /S3_REGION: .*region name/],
    [{ MEDIA_PUBLIC_URL: 'cdn.orbit.example' }, /MEDIA_PUBLIC_URL: .*http/],
    [{ MEDIA_PUBLIC_URL: 'https://cdn.orbit.example/?a=1' }, /MEDIA_PUBLIC_URL: .*without a query/],
    [{ MEDIA_SWEEP_INTERVAL_MINUTES: '0' }, /MEDIA_SWEEP_INTERVAL_MINUTES: .*more than 0/],
    [{ MEDIA_SWEEP_INTERVAL_MINUTES: '2000' }, /MEDIA_SWEEP_INTERVAL_MINUTES: .*at most 1440/],
    [
      { MEDIA_SWEEP_INTERVAL_MINUTES: 'often' },
      /MEDIA_SWEEP_INTERVAL_MINUTES: .*number of minutes/,
    ],
  ])('refuses %o, naming the setting', (env, message) => {
    expect(() => load(env)).toThrow(message);
  });
});
