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
 * Resolves the API caller once per request, as Password Pusher does: with both `X-User-Email`
 * and `X-User-Token` the legacy token is the credential (taking precedence over
 * `Authorization`), otherwise the last word of `Authorization` (so a bare token works too).
 * The token alone decides the account; the email header is not checked against it. A token
 * header (`Authorization` or `X-User-Token`, even without its email) that finds no account is
 * remembered, so the API answers 401 instead of treating the caller as anonymous.
 */
export function requestContext(options: ContextOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const email = c.req.header('x-user-email');
    const legacyToken = c.req.header('x-user-token');
    const authorization = c.req.header('authorization');
    const token = email !== undefined && legacyToken !== undefined ? legacyToken.trim() : (authorization?.trim().split(/\s+/).pop() ?? '');
    const presented = legacyToken !== undefined || (authorization !== undefined && authorization.trim() !== '');
    const user = token !== '' ? await options.accounts.authenticateToken(token) : null;
    c.set('ctx', {
      user,
      badCredentials: presented && !user,
      client: clientInfo(c, options.trustProxy),
      baseUrl: options.baseUrl ?? requestBaseUrl(c, options.trustProxy),
    });
    await next();
  };
}
