import { createHmac } from 'node:crypto';
import { safeEqual } from '../../crypto/secret-hash.js';

/**
 * A short-lived statement the server signs and hands to the browser (in a cookie) so that any
 * instance can read it back: "this browser gave the right password for account X and now owes
 * a second factor", "this is the WebAuthn challenge we asked to be signed". HMAC-SHA256 with a
 * key derived from the master key, so it cannot be forged or altered, and it carries its own
 * expiry. It is a claim about the past, never a session: it opens only the step it names.
 */
export class TicketSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number,
  ) {}

  sign<T extends object>(purpose: string, payload: T, lifetimeMs: number): string {
    const body = Buffer.from(JSON.stringify({ p: purpose, e: this.now() + lifetimeMs, d: payload }), 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a ticket signed for `purpose` that has not expired; otherwise null. */
  read<T>(purpose: string, ticket: string | undefined): T | null {
    if (!ticket || ticket.length > 4096) return null;
    const dot = ticket.indexOf('.');
    if (dot < 1) return null;
    const body = ticket.slice(0, dot);
    if (!safeEqual(ticket.slice(dot + 1), this.mac(body))) return null;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p?: unknown; e?: unknown; d?: unknown };
      if (parsed.p !== purpose || typeof parsed.e !== 'number' || parsed.e <= this.now()) return null;
      return parsed.d as T;
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
