import { describe, expect, it } from 'vitest';
import { resolveApiOrigin } from './apiHost.ts';

const page = (url: string) => {
  const { protocol, hostname, origin } = new URL(url);
  return { protocol, hostname, origin };
};

describe('API host rule', () => {
  it('uses the build setting when there is one', () =>
    expect(resolveApiOrigin('https://api.example.net/', page('https://orbit.example.com'))).toBe(
      'https://api.example.net',
    ));
  it("uses the page's own origin when the build setting says self", () =>
    expect(resolveApiOrigin('self', page('https://orbit.example.com:8443/x'))).toBe(
      'https://orbit.example.com:8443',
    ));
  it('sends a locally served page to the local server on port 5000', () =>
    expect(resolveApiOrigin('', page('http://localhost:5173/landing'))).toBe(
      'http://localhost:5000',
    ));
  it('treats 127.0.0.1 as local', () =>
    expect(resolveApiOrigin('', page('http://127.0.0.1:4173'))).toBe('http://127.0.0.1:5000'));
  it('sends a public page to the api subdomain of its domain', () =>
    expect(resolveApiOrigin('', page('https://orbit.example.com/profile'))).toBe(
      'https://api.orbit.example.com',
    ));
  it('drops www before adding api', () =>
    expect(resolveApiOrigin('', page('https://www.orbit.example.com'))).toBe(
      'https://api.orbit.example.com',
    ));
  it('keeps a bare IP address as its own API host', () =>
    expect(resolveApiOrigin('', page('http://10.0.0.7:8080'))).toBe('http://10.0.0.7:8080'));
});
