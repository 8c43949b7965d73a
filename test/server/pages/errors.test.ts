import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../server/http/app-env.js';
import { pageErrorResponse } from '../../../server/http/pages/page-errors.js';
import { ServiceError } from '../../../server/service-error.js';
import { StorageUnavailableError } from '../../../server/storage/store.js';

/** The page error handler in process: every failure becomes an HTML page, never JSON or a trace. */
function appThrowing(error: unknown) {
  const logged: string[] = [];
  const app = new Hono<AppEnv>();
  app.onError((e, c) => pageErrorResponse(c, e, { error: (m: string) => void logged.push(m) }));
  app.get('/x', () => {
    throw error;
  });
  return { app, logged };
}

describe('page errors', () => {
  it('storage unavailable → a 503 page with Retry-After', async () => {
    const { app, logged } = appThrowing(new StorageUnavailableError('disk full at /secret/path'));
    const res = await app.request('/x');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('retry-after')).toBe('30');
    const html = await res.text();
    expect(html).toContain('Temporarily unavailable');
    expect(html).not.toContain('/secret/path');
    expect(logged).toEqual(['storage unavailable']);
  });

  it('an unexpected error → a friendly 500 page without the message or stack', async () => {
    const { app, logged } = appThrowing(new TypeError('payload=hunter2 at Object.<anonymous>'));
    const res = await app.request('/x');
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('Something went wrong');
    expect(html).not.toContain('hunter2');
    expect(html).not.toContain('TypeError');
    expect(logged).toHaveLength(1);
  });

  it('a service error → its status and message, escaped; 429 keeps Retry-After', async () => {
    const res = await appThrowing(new ServiceError('bad_request', 'Bad <b>input</b>')).app.request('/x');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Bad &lt;b>input&lt;/b>');
    const limited = await appThrowing(new ServiceError('too_many_requests', 'Slow down', undefined, 42)).app.request('/x');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('42');
    expect(await limited.text()).toContain('Slow down');
  });
});
