import { Hono } from 'hono';
import { ConnectExchangeError, type ExtensionConnectService } from '../../accounts/extension-connect/connect-service.js';
import type { AppEnv } from '../app-env.js';
import { readBodyText } from '../request-body.js';

/** A token request is four short fields. */
const MAX_BODY_BYTES = 4096;

/**
 * POST /extension/token: the extension exchanges its one-time code and PKCE verifier for an
 * API token (accounts/extension-connect/). JSON or a form body, as an OAuth token endpoint takes
 * (RFC 6749 §4.1.3); refusals are 400 with OAuth's `error` and `error_description`.
 */
export function extensionTokenRoute(connect: ExtensionConnectService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/extension/token', async (c) => {
    c.header('Cache-Control', 'no-store');
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const text = await readBodyText(c, MAX_BODY_BYTES);
    let body: unknown;
    if (type === 'application/json') {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    } else if (type === 'application/x-www-form-urlencoded') {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return c.json({ error: 'invalid_request', error_description: 'The body must be a JSON object (or a form) with grant_type, code, code_verifier and redirect_uri.' }, 400);
    }
    try {
      const made = await connect.exchange(body as Record<string, unknown>);
      return c.json({ token: made.token, token_type: 'Bearer', id: made.id, label: made.label, created_at: made.createdAt });
    } catch (e) {
      if (e instanceof ConnectExchangeError) return c.json({ error: e.error, error_description: e.message }, 400);
      throw e;
    }
  });
  return app;
}
