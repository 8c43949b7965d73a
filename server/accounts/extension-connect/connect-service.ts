import { randomBytes, randomUUID } from 'node:crypto';
import { digest } from '../../crypto/secret-hash.js';
import type { Store } from '../../storage/store.js';
import type { AccountService } from '../account-service.js';
import type { User } from '../user.js';
import { S256_CHALLENGE, verifierMatches } from './pkce.js';
import { extensionRedirect, type ExtensionRedirect } from './redirect-uri.js';

/** A code is exchanged at once by the extension that asked for it: a minute is plenty. */
export const CONNECT_CODE_SECONDS = 60;
/** Used codes are kept this long past their expiry, so that a late replay still revokes the token. */
const KEEP_AFTER_EXPIRY_MS = 3_600_000;
const SWEEP_BATCH = 500;

/** What the extension asks with (GET /extension/connect), checked. */
export interface ConnectRequest {
  redirect: ExtensionRedirect;
  challenge: string;
  state: string;
}

/** An authorization request that cannot be answered: shown to the user, never sent to the redirect URI. */
export class ConnectRequestError extends Error {}

/** A refused exchange, in OAuth's words (RFC 6749 §5.2): the route answers 400 with them. */
export class ConnectExchangeError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type',
    description: string,
  ) {
    super(description);
  }
}

export interface ExtensionConnectDeps {
  store: Store;
  accounts: AccountService;
  clock?: () => Date;
}

/**
 * The extension connects by signing in (issue 30 item 4): an authorization-code exchange with
 * PKCE, as OAuth 2.1 has it for public clients. The user approves in a browser window
 * (identity.launchWebAuthFlow); the server sends a one-time code to the extension's redirect
 * URI; the extension exchanges code + verifier for an API token made for it. The token never
 * travels in a URL; a code is stored only as its digest, works once, for a minute, with the
 * verifier whose challenge it was made for and the redirect URI it was sent to. A code used a
 * second time revokes the token the first use made (RFC 6749 §4.1.2: it may have been stolen).
 */
export class ExtensionConnectService {
  private readonly now: () => Date;

  constructor(private readonly deps: ExtensionConnectDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  /** Checks the extension's request; throws ConnectRequestError with what is wrong. */
  checkRequest(query: { redirect_uri?: unknown; code_challenge?: unknown; code_challenge_method?: unknown; state?: unknown }): ConnectRequest {
    const redirect = extensionRedirect(query.redirect_uri);
    if (!redirect) throw new ConnectRequestError('redirect_uri must be the address a browser extension gets from identity.getRedirectURL() (https://<id>.chromiumapp.org/ or https://<id>.extensions.allizom.org/).');
    if (query.code_challenge_method !== 'S256') throw new ConnectRequestError('code_challenge_method must be S256.');
    if (typeof query.code_challenge !== 'string' || !S256_CHALLENGE.test(query.code_challenge)) {
      throw new ConnectRequestError('code_challenge must be the base64url SHA-256 of a PKCE code verifier (43 characters).');
    }
    if (typeof query.state !== 'string' || !/^[A-Za-z0-9._~-]{16,128}$/.test(query.state)) {
      throw new ConnectRequestError('state must be 16 to 128 letters, digits or - . _ ~.');
    }
    return { redirect, challenge: query.code_challenge, state: query.state };
  }

  /** The user allowed the extension: a one-time code for it, and where to send the browser with it. */
  async approve(user: User, request: ConnectRequest, label: string): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.deps.store.insertConnectCode({
      hash: digest(code),
      userId: user.id,
      challenge: request.challenge,
      redirectUri: request.redirect.uri,
      label: label.slice(0, 100),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CONNECT_CODE_SECONDS * 1000).toISOString(),
    });
    return withParams(request.redirect.uri, { code, state: request.state });
  }

  /** The user said no: the extension hears so (and stops waiting). */
  deny(request: ConnectRequest): string {
    return withParams(request.redirect.uri, { error: 'access_denied', state: request.state });
  }

  /** Code + verifier for an API token (its plaintext is the only copy). */
  async exchange(body: Record<string, unknown>): Promise<{ token: string; id: string; label: string; createdAt: string }> {
    if (body.grant_type !== 'authorization_code') throw new ConnectExchangeError('unsupported_grant_type', 'grant_type must be authorization_code.');
    const { code, code_verifier: verifier, redirect_uri: redirectUri } = body;
    if (typeof code !== 'string' || code.length === 0 || code.length > 100) throw new ConnectExchangeError('invalid_request', 'code is missing.');
    if (typeof verifier !== 'string' || verifier.length === 0) throw new ConnectExchangeError('invalid_request', 'code_verifier is missing.');
    if (typeof redirectUri !== 'string' || redirectUri.length === 0) throw new ConnectExchangeError('invalid_request', 'redirect_uri is missing.');
    const now = this.now();
    // Marked used before anything else is checked: a code gets one try, right or wrong.
    const tokenId = randomUUID();
    const redeemed = await this.deps.store.redeemConnectCode(digest(code), now.toISOString(), tokenId);
    const refused = new ConnectExchangeError('invalid_grant', 'The code is unknown, used, expired, or was not made for this verifier and redirect URI. Connect again.');
    if (!redeemed) throw refused;
    const stored = redeemed.code;
    if (!redeemed.first) {
      if (stored.tokenId) await this.deps.store.deleteApiToken(stored.tokenId);
      throw refused;
    }
    if (stored.expiresAt <= now.toISOString() || stored.redirectUri !== redirectUri || !verifierMatches(verifier, stored.challenge)) throw refused;
    const user = await this.deps.store.getUser(stored.userId);
    if (!user) throw refused;
    const { token, info } = await this.deps.accounts.createApiToken({ id: user.id, email: user.email, createdAt: user.createdAt }, stored.label, tokenId);
    return { token, id: info.id, label: info.label, createdAt: info.createdAt };
  }

  /** Deletes codes long past their expiry (run by the sweeper); returns how many. */
  async sweep(): Promise<number> {
    const before = new Date(this.now().getTime() - KEEP_AFTER_EXPIRY_MS);
    let total = 0;
    let n: number;
    do {
      n = await this.deps.store.deleteExpiredConnectCodes(before, SWEEP_BATCH);
      total += n;
    } while (n === SWEEP_BATCH);
    return total;
  }
}

function withParams(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}
