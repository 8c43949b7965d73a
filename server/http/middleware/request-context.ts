import { getConnInfo } from '@hono/node-server/conninfo';
import type { Socket } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import type { AppEnv } from '../app-env.js';
import type { ClientInfo, RequestContext } from '../request-context.js';
import { requestHeader } from '../request-header.js';

export interface ContextOptions {
  accounts: AccountService;
  baseUrl: string | undefined;
  trustProxy: boolean;
  /** Host values (`name` or `name:port`, lower case) that links may be built on without BASE_URL. */
  allowedHosts: Set<string>;
}

/** The client's address: the socket's, or behind a trusted proxy the one it appended. */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = requestHeader(c, 'x-forwarded-for');
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
    userAgent: requestHeader(c, 'user-agent') ?? '',
    referrer: requestHeader(c, 'referer') ?? '',
  };
}

/**
 * The origin secret links are built on when BASE_URL is not set. The Host header (or, behind a
 * trusted proxy, X-Forwarded-Host) is the client's to choose: a link built from any value would
 * let a request plant another site's address in a link the creator then hands out. So it is used
 * only when it names the address the server listens on (or, for a loopback listener,
 * `localhost`) or is listed in ALLOWED_HOSTS; otherwise links use the listen address itself.
 */
function requestBaseUrl(c: Context<AppEnv>, options: ContextOptions): string {
  // A keep-alive connection sends the same Host (and forwarded headers) request after request:
  // the answer is kept per connection and reused while the headers it came from stay the same.
  const socket = c.env?.incoming?.socket as Socket | undefined;
  const from = options.trustProxy
    ? `${requestHeader(c, 'host')}\n${requestHeader(c, 'x-forwarded-proto')}\n${requestHeader(c, 'x-forwarded-host')}`
    : (requestHeader(c, 'host') ?? '');
  const known = socket && baseUrlBySocket.get(socket);
  if (known?.from === from) return known.baseUrl;
  const baseUrl = baseUrlFromHeaders(c, options);
  if (socket) baseUrlBySocket.set(socket, { from, baseUrl });
  return baseUrl;
}

const baseUrlBySocket = new WeakMap<Socket, { from: string; baseUrl: string }>();

function baseUrlFromHeaders(c: Context<AppEnv>, options: ContextOptions): string {
  let url = new URL(c.req.url);
  if (options.trustProxy) {
    const proto = requestHeader(c, 'x-forwarded-proto')?.split(',')[0]?.trim();
    const host = requestHeader(c, 'x-forwarded-host')?.split(',')[0]?.trim();
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    // The forwarded host replaces host and port (no port: the scheme's default).
    if (host && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) url = new URL(`${url.protocol}//${host}`);
  }
  const listen = listenAddress(c);
  const host = url.host.toLowerCase();
  if (options.allowedHosts.has(host) || options.allowedHosts.has(url.hostname.toLowerCase()) || (listen && listen.names.includes(host))) return url.origin;
  return listen ? `${url.protocol}//${listen.names[0]}` : url.origin;
}

/** The socket's own address as a Host value, and its other names (`localhost` on loopback). */
function listenAddress(c: Context<AppEnv>): { names: string[] } | undefined {
  const socket = c.env?.incoming?.socket;
  const address = socket?.localAddress;
  const port = socket?.localPort;
  if (!address || !port) return undefined;
  const ip = address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
  const own = ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
  const loopback = ip === '::1' || ip.startsWith('127.');
  return { names: loopback ? [own, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`] : [own] };
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
  // Not an async function: a request without a token (anonymous API use, every page view, the
  // version) goes straight on, without a promise and resumption of this layer's own.
  return (c, next) => {
    const email = requestHeader(c, 'x-user-email');
    const legacyToken = requestHeader(c, 'x-user-token');
    const authorization = requestHeader(c, 'authorization');
    const token = email !== undefined && legacyToken !== undefined ? legacyToken.trim() : (authorization?.trim().split(/\s+/).pop() ?? '');
    const presented = legacyToken !== undefined || (authorization !== undefined && authorization.trim() !== '');
    if (token === '') {
      c.set('ctx', lazyRequestContext(c, options, null, presented));
      return next();
    }
    return options.accounts.authenticateToken(token).then((user) => {
      c.set('ctx', lazyRequestContext(c, options, user, presented && !user));
      return next();
    });
  };
}

/**
 * The client's address and browser and the public origin are worked out when something first
 * reads them, not for every request: most answers (version, health, static assets, a refusal)
 * never do, and building them (the socket's address info, the Host check) was a sizeable part
 * of a small answer's cost. Own enumerable getters, so a copy (`{ ...ctx }`, as tRPC's
 * middleware makes) still carries the values.
 *
 * The getters are the same two functions for every request (LAZY_FIELDS), reading the request
 * from the object's private fields. They were closures in an object literal, fresh per request:
 * V8 then gives each context a hidden class of its own, allocated in the old generation, whose
 * accessors keep that request's closures — and through them its Hono context, request and
 * answer — alive through every young-generation collection until a full one. That was ~8 KB of
 * every request promoted, a mark-compact every few thousand requests (test/bench/gc-under-load.sh;
 * docs/performance.md).
 */
class LazyRequestContext {
  readonly #c: Context<AppEnv>;
  readonly #options: ContextOptions;
  #client: ClientInfo | undefined;
  #baseUrl: string | undefined;
  declare readonly client: ClientInfo;
  declare readonly baseUrl: string;

  constructor(
    c: Context<AppEnv>,
    options: ContextOptions,
    readonly user: RequestContext['user'],
    readonly badCredentials: boolean,
  ) {
    this.#c = c;
    this.#options = options;
    Object.defineProperties(this, LAZY_FIELDS);
  }

  static client(ctx: LazyRequestContext): ClientInfo {
    return (ctx.#client ??= clientInfo(ctx.#c, ctx.#options.trustProxy));
  }

  static baseUrl(ctx: LazyRequestContext): string {
    return (ctx.#baseUrl ??= ctx.#options.baseUrl ?? requestBaseUrl(ctx.#c, ctx.#options));
  }
}

const LAZY_FIELDS: PropertyDescriptorMap = {
  client: {
    enumerable: true,
    get(this: LazyRequestContext) {
      return LazyRequestContext.client(this);
    },
  },
  baseUrl: {
    enumerable: true,
    get(this: LazyRequestContext) {
      return LazyRequestContext.baseUrl(this);
    },
  },
};

function lazyRequestContext(c: Context<AppEnv>, options: ContextOptions, user: RequestContext['user'], badCredentials: boolean): RequestContext {
  return new LazyRequestContext(c, options, user, badCredentials);
}
