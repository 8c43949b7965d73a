import type { User } from '../accounts/user.js';

/** What every adapter (REST, tRPC, pages) knows about the caller, resolved once per request. */
export interface RequestContext {
  user: User | null;
  /** Set when the caller presented credentials that did not match any account. */
  badCredentials: boolean;
  client: ClientInfo;
  /** Public origin for secret URLs (config BASE_URL, or derived from the request). */
  baseUrl: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
  referrer: string;
}
