import { describe, expect, it } from 'vitest';
import { checkServerUrl, tokenPageUrl } from '../../extension/lib/server-address';

const ok = (input: string) => {
  const r = checkServerUrl(input);
  if (!r.ok) throw new Error(`${input}: ${r.error}`);
  return r;
};
const refused = (input: string) => {
  const r = checkServerUrl(input);
  if (r.ok) throw new Error(`${input} was accepted as ${r.url}`);
  return r.error;
};

describe('checkServerUrl', () => {
  it('canonicalises an address and gives a port-free origin pattern', () => {
    expect(ok(' https://push.example.org/ ')).toEqual({
      ok: true,
      url: 'https://push.example.org',
      origin: 'https://push.example.org',
      host: 'push.example.org',
      originPattern: 'https://push.example.org/*',
      plainHttpRemote: false,
    });
    expect(ok('http://127.0.0.1:8080/secret/?q=1#x')).toMatchObject({
      url: 'http://127.0.0.1:8080/secret',
      origin: 'http://127.0.0.1:8080',
      originPattern: 'http://127.0.0.1/*',
      plainHttpRemote: false,
    });
  });

  it('repairs what is plainly meant: a missing colon or slash, capitals, a trailing slash', () => {
    expect(ok('http//push.example.org').url).toBe('http://push.example.org');
    expect(ok('https//push.example.org/').url).toBe('https://push.example.org');
    expect(ok('https:/push.example.org').url).toBe('https://push.example.org');
    expect(ok('HTTPS://PUSH.Example.ORG/').url).toBe('https://push.example.org');
    expect(ok('PUSH.EXAMPLE.ORG').url).toBe('https://push.example.org');
  });

  it('assumes https for a bare name, but never for a host with a port', () => {
    expect(ok('push.example.org').url).toBe('https://push.example.org');
    expect(refused('push.example.org:8080')).toBe(
      'Say how to reach push.example.org:8080: type http://push.example.org:8080 or https://push.example.org:8080, whichever your server uses.',
    );
    expect(refused('localhost:3000/app')).toContain('http://localhost:3000 or https://localhost:3000');
  });

  it('refuses spaces and what is not a web server address, saying what is wrong', () => {
    expect(refused('push example.org')).toBe('The address "push example.org" has a space in it: a web address has none.');
    expect(refused('')).toContain('Enter the address');
    expect(refused('ftp://x.example')).toContain('not ftp://');
    expect(refused('https://user:pw@x.example')).toContain('user names and passwords');
    for (const bad of ['javascript:alert(1)', 'http://']) expect(refused(bad).length).toBeGreaterThan(10);
  });

  it('tells plain http to another machine from plain http on this one', () => {
    expect(ok('http://push.example.org').plainHttpRemote).toBe(true);
    expect(ok('http://10.0.0.5:8080').plainHttpRemote).toBe(true);
    for (const local of ['http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:80', 'http://app.localhost']) {
      expect(ok(local).plainHttpRemote, local).toBe(false);
    }
    expect(ok('https://push.example.org').plainHttpRemote).toBe(false);
  });

  it('points at the token page of the server', () => {
    expect(tokenPageUrl('https://push.example.org/')).toBe('https://push.example.org/users/token');
  });
});
