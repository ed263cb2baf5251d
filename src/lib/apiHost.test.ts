import { describe, expect, it } from 'vitest';
import { resolveApiOrigin } from './apiHost.ts';

const page = (url: string) => {
  const { protocol, hostname, origin } = new URL(url);
  return { protocol, hostname, origin };
};

describe('API host rule', () => {
  it.each([
    [
      'uses the build setting when there is one',
      'https://api.example.net/',
      'https://orbit.example.com',
      'https://api.example.net',
    ],
    [
      "uses the page's own origin when the build setting says self",
      'self',
      'https://orbit.example.com:8443/x',
      'https://orbit.example.com:8443',
    ],
    [
      'sends a locally served page to the local server on port 5000',
      '',
      'http://localhost:5173/landing',
      'http://localhost:5000',
    ],
    ['treats 127.0.0.1 as local', '', 'http://127.0.0.1:4173', 'http://127.0.0.1:5000'],
    [
      'sends a public page to the api subdomain of its domain',
      '',
      'https://orbit.example.com/profile',
      'https://api.orbit.example.com',
    ],
    [
      'drops www before adding api',
      '',
      'https://www.orbit.example.com',
      'https://api.orbit.example.com',
    ],
    [
      'keeps a bare IP address as its own API host',
      '',
      'http://10.0.0.7:8080',
      'http://10.0.0.7:8080',
    ],
  ])('%s', (_rule, setting, url, origin) =>
    expect(resolveApiOrigin(setting, page(url))).toBe(origin),
  );
});
