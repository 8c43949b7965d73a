import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import type { AppEnv } from '../app-env.js';
import type { ClientInfo } from '../request-context.js';

export interface ContextOptions {
  accounts: AccountService;
  baseUrl: string | undefined;
  trustProxy: boolean;
}

/** The client's address: the socket's, or behind a trusted proxy the one it appended. */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? '';
  } catch {
    return '';
  }
}

function clientInfo(c: Context<AppEnv>, trustProxy: boolean): ClientInfo {
  return {
    ip: clientIp(c, trustProxy),
    userAgent: c.req.header('user-agent') ?? '',
    referrer: c.req.header('referer') ?? '',
  };
}

function requestBaseUrl(c: Context<AppEnv>, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  if (trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) url.host = host;
  }
  return url.origin;
}

/**
 * Resolves the API caller once per request. Legacy `X-User-Email` + `X-User-Token` take
 * precedence over `Authorization: Bearer`; of the Authorization value the last word is the
 * token (so a bare token works too). Presented-but-wrong credentials are remembered so the
 * API can answer 401 instead of treating the caller as anonymous.
 */
export function requestContext(options: ContextOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const email = c.req.header('x-user-email');
    const legacyToken = c.req.header('x-user-token');
    const authorization = c.req.header('authorization');
    let user = null;
    let presented = false;
    if (email !== undefined && legacyToken !== undefined) {
      presented = true;
      user = await options.accounts.authenticateToken(legacyToken.trim(), email);
    } else if (authorization !== undefined && authorization.trim() !== '') {
      presented = true;
      const token = authorization.trim().split(/\s+/).pop() ?? '';
      user = await options.accounts.authenticateToken(token);
    }
    c.set('ctx', {
      user,
      badCredentials: presented && !user,
      client: clientInfo(c, options.trustProxy),
      baseUrl: options.baseUrl ?? requestBaseUrl(c, options.trustProxy),
    });
    await next();
  };
}
