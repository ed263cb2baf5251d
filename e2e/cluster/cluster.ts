/**
 * A multi-node Orbit as docs/deploy.md "Deploy" sets it up, on this machine: nginx with TLS running
 * deploy/nginx/orbit.conf, two nodes and their push relays started from the ExecStart lines of
 * deploy/systemd/ with the settings of deploy/orbit.env, on PostgreSQL, Redis and an
 * S3-compatible bucket. Only what names this machine (addresses, ports, credentials) is replaced.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import webPush from 'web-push';
import type { S3Config } from '../../server/src/config.ts';
import { createFreshDatabase } from '../../server/test/postgres.ts';
import { startS3rver } from '../../server/test/s3-helpers.ts';
import { writeSelfSignedCertificate } from '../../push-relay/test/certificate.ts';
import { freePort } from '../ports.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEPLOY = path.join(ROOT, 'deploy');

const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Redis for the cluster; its database is emptied at start (rate-limit counters of earlier runs). */
const CLUSTER_REDIS_URL = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** What the test workers need to know, handed over in ORBIT_CLUSTER as JSON. */
export interface ClusterInfo {
  /** The site as members reach it: nginx balancing over both nodes. */
  site: string;
  /** The same site, but always on node 1 / node 2 (test-only extra server blocks). */
  pinned: [string, string];
  /** The nodes themselves, behind nginx. */
  nodes: { url: string; pid: number; relayPid: number }[];
  /** AUTH_RATE_LIMIT of the nodes. */
  authRateLimit: number;
  /** The bucket every node keeps pictures in. */
  bucket: S3Config;
  dataDir: string;
  dir: string;
}

const AUTH_RATE_LIMIT = 20;

export function clusterInfo(): ClusterInfo {
  const text = process.env.ORBIT_CLUSTER;
  if (!text)
    throw new Error('ORBIT_CLUSTER is not set: run through e2e/cluster/playwright.config.ts');
  return JSON.parse(text) as ClusterInfo;
}

/** KEY=VALUE lines of an environment file, as systemd reads them (comments and blanks skipped). */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match?.[1]) env[match[1]] = match[2]?.trim() ?? '';
  }
  return env;
}

/** A unit's ExecStart and Environment= lines, with the instance name (%i) filled in. */
function readUnit(file: string, instance: string): { argv: string[]; env: Record<string, string> } {
  const text = fs.readFileSync(file, 'utf8').replaceAll('%i', instance);
  const exec = /^ExecStart=(.+)$/m.exec(text)?.[1];
  if (!exec) throw new Error(`${file} has no ExecStart`);
  const env: Record<string, string> = {};
  for (const match of text.matchAll(/^Environment=([A-Z0-9_]+)=(.*)$/gm))
    if (match[1]) env[match[1]] = match[2] ?? '';
  return { argv: exec.trim().split(/\s+/), env };
}

/** The text of a `name { … }` block starting at `start` (braces balanced). */
function blockAt(text: string, start: number): string {
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error('unbalanced braces in the nginx site');
}

interface SiteOptions {
  dir: string;
  cert: { cert: string; key: string };
  nodePorts: number[];
  httpPort: number;
  sitePort: number;
  pinnedPorts: number[];
}

/**
 * deploy/nginx/orbit.conf with this machine's certificate, cache folder, ports and nodes, plus one
 * extra TLS server per node that sends everything to that node alone.
 */
function siteConfig(options: SiteOptions): string {
  let site = fs.readFileSync(path.join(DEPLOY, 'nginx', 'orbit.conf'), 'utf8');
  const upstreamStart = site.indexOf('upstream orbit {');
  const upstream = blockAt(site, upstreamStart);
  const serverLine = /^(\s*)server \S+(.*)$/m.exec(upstream);
  if (!serverLine) throw new Error('no server line in the upstream');
  const [, indent = '    ', params = ';'] = serverLine;
  const nodesUpstream = upstream
    .replace(/^\s*server \S+.*\n/gm, '')
    .replace(
      /\{\n/,
      `{\n${options.nodePorts.map((port) => `${indent}server 127.0.0.1:${port}${params}\n`).join('')}`,
    );
  site = site.replace(upstream, nodesUpstream);
  site = site
    .replace(/proxy_cache_path \S+/, `proxy_cache_path ${path.join(options.dir, 'cache')}`)
    .replace(/^\s*listen \[::\].*\n/gm, '')
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${options.httpPort};`)
    .replace(/^(\s*)listen 443 (.*);$/m, `$1listen 127.0.0.1:${options.sitePort} $2;`)
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${options.cert.cert};`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${options.cert.key};`);

  const tlsListen = site.indexOf(`listen 127.0.0.1:${options.sitePort} `);
  if (tlsListen < 0) throw new Error('no TLS server block in the nginx site');
  const tlsServer = blockAt(site, site.lastIndexOf('server {', tlsListen));
  const pinned = options.pinnedPorts.map((port, index) => {
    const name = `orbit_node${index + 1}`;
    return [
      `upstream ${name} {\n    server 127.0.0.1:${options.nodePorts[index]};\n    keepalive 8;\n}`,
      tlsServer
        .replace(`listen 127.0.0.1:${options.sitePort} `, `listen 127.0.0.1:${port} `)
        .replaceAll('proxy_pass http://orbit;', `proxy_pass http://${name};`),
    ].join('\n');
  });
  return [site, ...pinned].join('\n\n');
}

function nginxConfig(dir: string, site: string): string {
  const temp = (name: string) => path.join(dir, 'tmp', name);
  for (const name of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    fs.mkdirSync(temp(name), { recursive: true });
  return `${process.getuid?.() === 0 ? 'user root root;\n' : ''}worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'nginx-error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${path.join(dir, 'nginx-access.log')};
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
${site}
}
`;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function started(name: string, argv: string[], env: NodeJS.ProcessEnv, dir: string): ChildProcess {
  const log = fs.openSync(path.join(dir, `${name}.log`), 'a');
  const [command = '', ...args] = argv;
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  return child;
}

function stopped(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

export interface Cluster {
  info: ClusterInfo;
  stop(): Promise<void>;
}

/** Starts everything; `extraEnv` is added to every node's and relay's settings. */
export async function startCluster(extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-cluster-'));
  const cleanups: (() => Promise<unknown> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    if (!process.env.ORBIT_E2E_KEEP_DATA) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const database = await createFreshDatabase(PG_TEST_URL, 'orbit_cluster');
    cleanups.push(() => database.drop());
    const s3 = await startS3rver();
    cleanups.push(() => s3.close());
    const bucket = await s3.createBucket('orbit-cluster');
    const redis = new Redis(CLUSTER_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.flushdb();
    redis.disconnect();

    const freePorts = async (count: number) => {
      const ports: number[] = [];
      while (ports.length < count) {
        const port = await freePort();
        if (!ports.includes(port)) ports.push(port);
      }
      return ports;
    };
    const [httpPort = 0, sitePort = 0, pin1 = 0, pin2 = 0, node1 = 0, node2 = 0] =
      await freePorts(6);
    const nodePorts = [node1, node2];
    const site = `https://localhost:${sitePort}`;
    const cert = writeSelfSignedCertificate(dir, 'localhost', 'DNS:localhost,IP:127.0.0.1');

    const vapid = webPush.generateVAPIDKeys();
    const base = readEnvFile(path.join(DEPLOY, 'orbit.env'));
    const dataDir = path.join(dir, 'data');
    const machine: Record<string, string> = {
      HOST: '127.0.0.1',
      PUBLIC_URL: site,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      REDIS_URL: CLUSTER_REDIS_URL,
      RELAY_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      // Room for the sign-ups and logins of every test from Chromium's one address.
      AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
      ...s3.env(bucket),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // One key pair for every relay, as docs/deploy.md "Step by step" asks.
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      ...extraEnv,
    };
    const nodes: ClusterInfo['nodes'] = [];
    for (const port of nodePorts) {
      const env = { ...process.env, ...base, ...machine };
      const server = readUnit(path.join(DEPLOY, 'systemd', 'orbit@.service'), String(port));
      const relay = readUnit(path.join(DEPLOY, 'systemd', 'orbit-relay@.service'), String(port));
      /** Runs a unit's command on this Node, stopped with the cluster. */
      const startUnit = (name: string, unit: { argv: string[]; env: Record<string, string> }) => {
        const child = started(
          name,
          [process.execPath, ...unit.argv.slice(1)],
          { ...env, ...unit.env },
          dir,
        );
        cleanups.push(() => stopped(child));
        return child;
      };
      const serverChild = startUnit(`node-${port}`, server);
      await waitFor(
        `the node on port ${port}`,
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok,
      );
      const relayChild = startUnit(`relay-${port}`, relay);
      nodes.push({
        url: `http://127.0.0.1:${port}`,
        pid: serverChild.pid ?? 0,
        relayPid: relayChild.pid ?? 0,
      });
    }

    const conf = path.join(dir, 'nginx.conf');
    fs.writeFileSync(
      conf,
      nginxConfig(
        dir,
        siteConfig({
          dir,
          cert,
          nodePorts,
          httpPort,
          sitePort,
          pinnedPorts: [pin1, pin2],
        }),
      ),
    );
    execFileSync(NGINX, ['-t', '-q', '-c', conf, '-p', dir], { stdio: 'pipe' });
    const nginx = started(
      'nginx',
      [NGINX, '-c', conf, '-p', dir, '-g', 'daemon off;'],
      process.env,
      dir,
    );
    cleanups.push(() => stopped(nginx, 'SIGQUIT'));
    // Node's fetch would refuse the self-signed certificate; the port answering is enough here.
    await waitFor(
      'nginx',
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(sitePort, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        }),
    );

    return {
      info: {
        site,
        pinned: [`https://localhost:${pin1}`, `https://localhost:${pin2}`],
        nodes,
        authRateLimit: AUTH_RATE_LIMIT,
        bucket: s3.settings(bucket),
        dataDir,
        dir,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
