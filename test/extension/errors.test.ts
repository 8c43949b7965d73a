import { describe, expect, it } from 'vitest';
import { describeError, fieldMessages } from '../../extension/lib/errors';
import { HttpFailure, retryAfterSeconds } from '../../extension/lib/http-failure';
import { apiError, networkError, SERVER } from './fakes';

describe('describeError', () => {
  it('names the server that cannot be reached', () => {
    const p = describeError(networkError(), SERVER);
    expect(p.kind).toBe('network');
    expect(p.message).toContain(`cannot be reached at ${SERVER}`);
  });

  it('tells a refused token from a missing one', () => {
    expect(describeError(apiError('UNAUTHORIZED', 401), SERVER, true).message).toMatch(/did not accept your API token/);
    expect(describeError(apiError('UNAUTHORIZED', 401), SERVER, false).message).toMatch(/needs an API token/);
  });

  it('puts 422 field messages by field, in plain words', () => {
    const p = describeError(
      apiError('UNPROCESSABLE_CONTENT', 422, 'Validation failed', {
        expire_after_days: ['must be between 1 and 90'],
        kind: ['URL pushes are disabled.'],
      }),
      SERVER,
    );
    expect(p.kind).toBe('invalid');
    expect(p.fields).toEqual({ expire_after_days: 'Days must be between 1 and 90.', kind: 'URL pushes are disabled.' });
    expect(p.message).toContain('Days must be between 1 and 90.');
  });

  it('says how long to wait on 429, from Retry-After', () => {
    expect(describeError(new HttpFailure(429, 42, 'Too many requests.'), SERVER).message).toBe('Too many requests: try again in 42 s.');
    expect(describeError(new HttpFailure(429, undefined, 'HTTP 429'), SERVER).message).toBe('Too many requests: try again in a minute.');
    expect(describeError(apiError('TOO_MANY_REQUESTS', 429), SERVER).kind).toBe('rate-limited');
    expect(retryAfterSeconds('120')).toBe(120);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 1, 0)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60);
    expect(retryAfterSeconds('soon')).toBeUndefined();
  });

  it('gives each HTTP failure its own words, whoever answered', () => {
    const said = (status: number) => describeError(new HttpFailure(status, undefined, `HTTP ${status}`), SERVER, true);
    expect(said(401).message).toContain('did not accept your API token (401)');
    expect(said(403).message).toContain('refused this (403 Forbidden)');
    expect(said(404).message).toContain('has no Secret Push API (404');
    expect(said(413)).toMatchObject({ kind: 'too-large', fields: { payload: 'The secret is too large for this server (413).' } });
    expect(said(502).message).toBe('The server failed (error 502). It is not something you did: try again later.');
    expect(said(503).message).toContain('unavailable right now (503)');
    const kinds = [401, 403, 404, 413, 429, 500, 502, 503].map((s) => said(s).message);
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('says when the certificate is the problem', () => {
    const err = Object.assign(new TypeError('Failed to fetch'), { netError: 'net::ERR_CERT_AUTHORITY_INVALID' });
    expect(describeError(err, SERVER)).toMatchObject({ kind: 'tls', netError: 'net::ERR_CERT_AUTHORITY_INVALID' });
    expect(describeError(new TypeError('Failed to fetch'), SERVER).kind).toBe('network');
  });

  it("names the browser's reason for a failed connection when it could be read (webRequest held), and only then", () => {
    const refused = Object.assign(new TypeError('Failed to fetch'), { netError: 'NS_ERROR_CONNECTION_REFUSED' });
    expect(describeError(refused, SERVER)).toMatchObject({
      kind: 'network',
      netError: 'NS_ERROR_CONNECTION_REFUSED',
      message: `The server cannot be reached at ${SERVER} (the browser says: NS_ERROR_CONNECTION_REFUSED). Check the address in Settings and that the server is running.`,
    });
    // Without the reason the popup offers to find it out (components/ProblemNotice.tsx).
    expect(describeError(networkError(), SERVER)).not.toHaveProperty('netError');
  });

  it('says when the address is not a Secret Push server', () => {
    const p = describeError(new Error('Unable to transform response from server'), SERVER);
    expect(p.kind).toBe('not-a-server');
    expect(p.message).toContain(SERVER);
  });

  it('keeps the server message of a 403 and a 400', () => {
    expect(describeError(apiError('FORBIDDEN', 403, "That push doesn't belong to you."), SERVER).message).toBe(
      "The server refused this (403 Forbidden): That push doesn't belong to you.",
    );
    expect(describeError(apiError('BAD_REQUEST', 400, 'Invalid page parameter'), SERVER).message).toContain('Invalid page parameter');
  });

  it('ignores empty messages', () => {
    expect(fieldMessages({ name: [], note: [''], payload: 'is empty' })).toEqual({ payload: 'Secret is empty.' });
  });
});
