import { describe, expect, it } from 'vitest';
import { describeError, fieldMessages } from '../../extension/lib/errors';
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

  it('asks to wait on 429', () => {
    expect(describeError(apiError('TOO_MANY_REQUESTS', 429), SERVER).message).toMatch(/too many requests.*wait/i);
  });

  it('says when the address is not a Secret Push server', () => {
    const p = describeError(new Error('Unable to transform response from server'), SERVER);
    expect(p.kind).toBe('not-a-server');
    expect(p.message).toContain(SERVER);
  });

  it('keeps the server message of a 403 and a 400', () => {
    expect(describeError(apiError('FORBIDDEN', 403, "That push doesn't belong to you."), SERVER).message).toBe("That push doesn't belong to you.");
    expect(describeError(apiError('BAD_REQUEST', 400, 'Invalid page parameter'), SERVER).message).toContain('Invalid page parameter');
  });

  it('ignores empty messages', () => {
    expect(fieldMessages({ name: [], note: [''], payload: 'is empty' })).toEqual({ payload: 'Secret is empty.' });
  });
});
