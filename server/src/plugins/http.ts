import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { MAX_UPLOAD_BYTES } from '../../../src/contracts/constants.ts';
import { TooManyAttempts } from '../errors.ts';
import { redisLimitStore } from '../lib/redis.ts';

/** What every route's request and answer go through: compression, cookies, CORS, forms, limits. */
export const httpPlugin = fp(
  async (app) => {
    const { config } = app;
    const limits = app.redis.limits;
    // JSON lists (a large gallery) shrink tenfold; brotli at a fast level keeps the CPU cost small.
    await app.register(fastifyCompress, {
      threshold: 1024,
      encodings: ['br', 'gzip', 'deflate'],
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
    await app.register(fastifyCookie);
    await app.register(fastifyCors, {
      origin: config.appOrigins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    });
    await app.register(fastifyMultipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 40, fieldSize: 64 * 1024, parts: 50 },
    });
    await app.register(fastifyRateLimit, {
      global: false,
      // Without Redis the attempts cannot be counted: 503 at once, never a skipped limit.
      ...(limits ? { store: redisLimitStore(limits, `${config.redisPrefix}-rl:`) } : {}),
      // An IPv6 client counts by its /64 (an IPv4-mapped one by its IPv4 address): one subscriber
      // usually holds the whole prefix. The plugin's default, stated so it cannot drift.
      ipv6Subnet: 64,
      errorResponseBuilder: (_request, context) =>
        new TooManyAttempts(Math.ceil(context.ttl / 1000)),
    });
  },
  // After the caching headers: ETags are taken from the JSON text (docs/decisions.md "Caching").
  { name: 'orbit-http', dependencies: ['orbit-database', 'orbit-redis', 'orbit-caching'] },
);
