import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

/**
 * A request header, read from the headers Node has already parsed when the request came through
 * node:http. The hot path reads several headers per request, and each `c.req.header` call
 * re-validates name and value with regular expressions that Node's parser has already applied.
 *
 * Only when no header name repeats: for a repeated name Node keeps the first value of some
 * headers (Authorization, Host, User-Agent…) where the Fetch API that `c.req.header` follows
 * joins them all, and the answer must not depend on which path read it. `app.request` in tests
 * has no Node request and goes through Hono.
 */
export function requestHeader(c: Context<AppEnv>, name: Lowercase<string>): string | undefined {
  const incoming = c.env?.incoming as IncomingMessage | undefined;
  if (incoming === undefined || hasRepeatedNames(incoming)) return c.req.header(name);
  const value = incoming.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether a request repeats a header name, kept on the request itself under a private symbol:
 * a WeakMap entry per request (as this was) costs an identity hash and an ephemeron-table entry
 * for every request, which the collector must then trace and clear; a property costs at most a
 * slot in the request's own property storage, gone with the request.
 */
const REPEATED_NAMES = Symbol('repeated header names');

type CheckedIncoming = IncomingMessage & { [REPEATED_NAMES]?: boolean };

function hasRepeatedNames(incoming: CheckedIncoming): boolean {
  let known = incoming[REPEATED_NAMES];
  if (known === undefined) {
    // Node's parsed headers hold one key per distinct name.
    known = Object.keys(incoming.headers).length * 2 !== incoming.rawHeaders.length;
    incoming[REPEATED_NAMES] = known;
  }
  return known;
}
