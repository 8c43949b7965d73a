import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Logger } from '../../logger.js';
import type { TicketSigner } from '../second-factor/signed-ticket.js';
import { ServiceError } from '../../service-error.js';
import type { StoredPasskey } from '../../storage/records.js';
import type { LimitCounters, Store } from '../../storage/store.js';
import { isStorableText } from '../../storage/storable-text.js';
import type { User } from '../user.js';

// Loaded at the first passkey ceremony, not at every start: the library and its certificate
// parsers are ~450 files, the largest part of what a server start loaded (strace of `node
// dist/server/main.js`), and most instances see a passkey rarely or never.
let webauthnLibrary: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => (webauthnLibrary ??= import('@simplewebauthn/server'));

/** A browser has this long between asking for a challenge and answering it. */
const CHALLENGE_MS = 5 * 60_000;
export const MAX_PASSKEYS = 20;
const MAX_NAME_CHARS = 60;
/** A real answer is one or two kilobytes (no attestation is asked for). */
const MAX_RESPONSE_CHARS = 16 * 1024;

export const PASSKEY_REFUSED_MESSAGE = 'This passkey was not accepted. It may have been removed from the account.';

export interface PasskeyInfo {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Where the pages are served: the origin the browser signs for, and its host as the WebAuthn RP ID. */
export interface RelyingParty {
  origin: string;
}

export interface PasskeyServiceDeps {
  store: Store;
  /** Signs the challenge a browser is to answer, so that any instance can check the answer. */
  tickets: TicketSigner;
  /** Each challenge is answered once, on any instance (a claim with limit 1). */
  counters: LimitCounters;
  rpName: string;
  clock?: () => Date;
  /** Passkeys added and removed are logged (the account id only: names are the user's words). */
  logger?: Pick<Logger, 'info'>;
}

type RegisterTicket = { c: string; u: string };
type SignInTicket = { c: string };

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: an account registers several, names and
 * removes them, and signs in with one alone. User verification (a PIN, a fingerprint) is
 * required, so a passkey is two factors: something held and something known or been. The
 * passkey is discoverable: the browser offers it without an email being typed, and names the
 * account by its user handle (the account id). Public keys live in the account record.
 */
export class PasskeyService {
  private readonly now: () => Date;

  constructor(private readonly deps: PasskeyServiceDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  async list(user: User): Promise<PasskeyInfo[]> {
    const stored = await this.deps.store.getUser(user.id);
    return (stored?.passkeys ?? []).map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }));
  }

  /** Options for navigator.credentials.create(), and the ticket to hand back with the answer. */
  async registrationOptions(user: User, rp: RelyingParty): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; ticket: string }> {
    const stored = await this.deps.store.getUser(user.id);
    if (!stored) throw new ServiceError('not_found', 'This account no longer exists.');
    if ((stored.passkeys?.length ?? 0) >= MAX_PASSKEYS) throw new ServiceError('conflict', `An account can have at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: this.deps.rpName,
      rpID: rpId(rp),
      userName: user.email,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: (stored.passkeys ?? []).map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { options, ticket: this.deps.tickets.sign<RegisterTicket>('webauthn-register', { c: options.challenge, u: user.id }, CHALLENGE_MS) };
  }

  /** Checks the browser's new credential against the ticket's challenge and adds it to the account. */
  async register(user: User, rp: RelyingParty, ticket: unknown, response: unknown, rawName: unknown): Promise<PasskeyInfo> {
    const t = this.deps.tickets.read<RegisterTicket>('webauthn-register', typeof ticket === 'string' ? ticket : undefined);
    if (!t || t.u !== user.id) throw new ServiceError('bad_request', 'The passkey request has expired. Please try again.');
    await this.useChallenge(t.c);
    const { verifyRegistrationResponse } = await webauthn();
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: asResponse<RegistrationResponseJSON>(response),
        expectedChallenge: t.c,
        expectedOrigin: rp.origin,
        expectedRPID: rpId(rp),
        requireUserVerification: true,
      });
    } catch (e) {
      throw new ServiceError('bad_request', `The passkey could not be registered: ${(e as Error).message}`);
    }
    if (!verified.verified) throw new ServiceError('bad_request', 'The passkey could not be registered.');
    const { credential } = verified.registrationInfo;
    const passkey: StoredPasskey = {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: passkeyName(rawName) ?? 'Passkey',
      createdAt: this.now().toISOString(),
      lastUsedAt: null,
    };
    const added = await this.deps.store.changeUser(user.id, (u) => {
      const keys = u.passkeys ?? [];
      if (keys.some((p) => p.id === passkey.id)) return { result: 'exists' as const };
      if (keys.length >= MAX_PASSKEYS) return { result: 'full' as const };
      return { next: { ...u, passkeys: [...keys, passkey] }, result: 'added' as const };
    });
    if (added === undefined) throw new ServiceError('not_found', 'This account no longer exists.');
    if (added === 'exists') throw new ServiceError('conflict', 'This passkey is already registered.');
    if (added === 'full') throw new ServiceError('conflict', `An account can have at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
    this.deps.logger?.info('account security: passkey added', { account: user.id });
    return { id: passkey.id, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: null };
  }

  /** Options for navigator.credentials.get() (any of this site's passkeys), and the ticket. */
  async signInOptions(rp: RelyingParty): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; ticket: string }> {
    const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rpId(rp), userVerification: 'required' });
    return { options, ticket: this.deps.tickets.sign<SignInTicket>('webauthn-sign-in', { c: options.challenge }, CHALLENGE_MS) };
  }

  /**
   * The account whose passkey signed the ticket's challenge, with user verification; its
   * signature counter and last use are updated. A removed passkey is refused.
   */
  async signIn(rp: RelyingParty, ticket: unknown, response: unknown): Promise<User> {
    const t = this.deps.tickets.read<SignInTicket>('webauthn-sign-in', typeof ticket === 'string' ? ticket : undefined);
    if (!t) throw new ServiceError('bad_request', 'The passkey request has expired. Please try again.');
    const answer = asResponse<AuthenticationResponseJSON>(response);
    await this.useChallenge(t.c);
    const userId = decodeUserHandle(answer.response?.userHandle);
    const stored = userId ? await this.deps.store.getUser(userId) : undefined;
    const passkey = stored?.passkeys?.find((p) => p.id === answer.id);
    if (!stored || !passkey) throw new ServiceError('unauthorized', PASSKEY_REFUSED_MESSAGE);
    const { verifyAuthenticationResponse } = await webauthn();
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: answer,
        expectedChallenge: t.c,
        expectedOrigin: rp.origin,
        expectedRPID: rpId(rp),
        credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports as never },
        requireUserVerification: true,
      });
    } catch {
      throw new ServiceError('unauthorized', PASSKEY_REFUSED_MESSAGE);
    }
    if (!verified.verified) throw new ServiceError('unauthorized', PASSKEY_REFUSED_MESSAGE);
    const at = this.now().toISOString();
    // Removed while this sign-in was under way: refused all the same.
    const still = await this.deps.store.changeUser(stored.id, (u) => {
      const keys = u.passkeys ?? [];
      if (!keys.some((p) => p.id === passkey.id)) return { result: false };
      const next = keys.map((p) => (p.id === passkey.id ? { ...p, counter: verified.authenticationInfo.newCounter, lastUsedAt: at } : p));
      return { next: { ...u, passkeys: next }, result: true };
    });
    if (!still) throw new ServiceError('unauthorized', PASSKEY_REFUSED_MESSAGE);
    return { id: stored.id, email: stored.email, createdAt: stored.createdAt };
  }

  async rename(user: User, id: string, rawName: unknown): Promise<void> {
    const name = passkeyName(rawName);
    if (!name) throw ServiceError.validation({ name: [`must be 1 to ${MAX_NAME_CHARS} characters`] });
    const found = await this.deps.store.changeUser(user.id, (u) => {
      const keys = u.passkeys ?? [];
      if (!keys.some((p) => p.id === id)) return { result: false };
      return { next: { ...u, passkeys: keys.map((p) => (p.id === id ? { ...p, name } : p)) }, result: true };
    });
    if (!found) throw new ServiceError('not_found', 'No such passkey.');
  }

  /**
   * Removes a passkey. Under REQUIRE_MFA (`keepOneFactor`) the last second factor of an account
   * without TOTP is not removed.
   */
  async remove(user: User, id: string, keepOneFactor: boolean): Promise<void> {
    const outcome = await this.deps.store.changeUser(user.id, (u) => {
      const keys = u.passkeys ?? [];
      if (!keys.some((p) => p.id === id)) return { result: 'missing' as const };
      if (keepOneFactor && keys.length === 1 && !u.secondFactor?.totpSecret) return { result: 'last' as const };
      return { next: { ...u, passkeys: keys.filter((p) => p.id !== id) }, result: 'removed' as const };
    });
    if (outcome !== 'removed' && outcome !== 'last') throw new ServiceError('not_found', 'No such passkey.');
    if (outcome === 'last') throw new ServiceError('forbidden', 'This server requires a second factor: set up an authenticator app or add another passkey before removing the last one.');
    this.deps.logger?.info('account security: passkey removed', { account: user.id });
  }

  /** A challenge is answered once: a second answer to it (a replay) is refused. */
  private async useChallenge(challenge: string): Promise<void> {
    const claim = await this.deps.counters.claim([{ key: `webauthn-challenge:${challenge}`, limit: 1, windowMs: CHALLENGE_MS * 2 }], this.now().getTime());
    if (!claim.allowed) throw new ServiceError('bad_request', 'The passkey request has expired. Please try again.');
  }
}

function rpId(rp: RelyingParty): string {
  return new URL(rp.origin).hostname;
}

function passkeyName(raw: unknown): string | null {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name || [...name].length > MAX_NAME_CHARS || !isStorableText(name) || /[\u0000-\u001f\u007f]/.test(name)) return null;
  return name;
}

/** The browser's JSON answer, checked only for its shape here (the library checks the rest). */
function asResponse<T>(raw: unknown): T {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw ?? null);
  if (text.length > MAX_RESPONSE_CHARS) throw new ServiceError('bad_request', 'The passkey answer is too large.');
  const value = typeof raw === 'string' ? safeJson(raw) : raw;
  if (!value || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string' || typeof (value as { response?: unknown }).response !== 'object') {
    throw new ServiceError('bad_request', 'The passkey answer is not one a browser sends.');
  }
  return value as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function decodeUserHandle(handle: unknown): string | null {
  if (typeof handle !== 'string' || handle.length > 256) return null;
  const id = Buffer.from(handle, 'base64url').toString('utf8');
  return id && isStorableText(id) ? id : null;
}

