import * as client from 'openid-client';
import type { KeyRing } from '../../crypto/key-ring.js';
import type { Logger } from '../../logger.js';
import { ServiceError } from '../../service-error.js';
import type { OidcSettings } from './oidc-settings.js';
import { openCookieValue, sealCookieValue } from './sealed-cookie-value.js';

/** How long a started sign-in may take at the provider (the flow cookie's life). */
const FLOW_MINUTES = 15;
/** Discovery is read again after this long (a provider may move endpoints or add logout). */
const DISCOVERY_TTL_MS = 3_600_000;
const FLOW_PURPOSE = 'oidc-flow';
const LOGOUT_PURPOSE = 'oidc-logout';

/** The relying party's refusals, shown on the pages (translated by their exact words, see i18n/service-messages.ts). */
export const SSO_FLOW_LOST_MESSAGE = 'This sign-in was not started in this browser, or took too long. Please start again.';
export const SSO_CANCELLED_MESSAGE = 'The sign-in was cancelled at the provider.';
export const SSO_PROVIDER_REFUSED_MESSAGE = 'The provider did not sign you in. Please start again.';
export const SSO_UNVERIFIABLE_MESSAGE = 'The answer from the sign-in provider could not be verified. Please start again.';
export const ssoUnreachableMessage = (displayName: string) => `The sign-in provider (${displayName}) cannot be reached. Please try again later.`;

/** What the browser carries between the start and the callback (sealed, see sealed-cookie-value.ts). */
interface FlowState {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  returnTo: string | null;
  /** An invite link's secret the sign-in started from (SIGN_UP=invite: it lets SSO make the account). */
  invite?: string;
}

/** What a completed provider sign-in tells about the person (the ID token's claims, validated). */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  /** The groups the ID token lists in the OIDC_GROUPS_CLAIM claim (empty when it has none). */
  groups: string[];
  /** The raw ID token, kept sealed in a cookie only as the hint for RP-initiated logout. */
  idToken: string;
}

/**
 * The OpenID Connect relying party, on openid-client (a certified implementation): discovery,
 * the authorization code flow with PKCE (S256), state and nonce, and the ID token checks
 * (signature through the provider's JWKS, issuer, audience, expiry, nonce) all done by the
 * library. This class only keeps the flow's secrets in a sealed cookie, not in memory, so the
 * callback may land on any instance that shares MASTER_KEY.
 */
export class OidcRelyingParty {
  private metadata: { value: client.ServerMetadata; at: number } | undefined;

  constructor(
    readonly settings: OidcSettings,
    private readonly keys: KeyRing,
    private readonly logger?: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get displayName(): string {
    return this.settings.displayName;
  }

  /**
   * A Configuration made fresh for each use from the discovered metadata: openid-client keeps
   * the provider's JWKS per Configuration object, and refetches a key set it has held for less
   * than a minute only after five, so one shared Configuration would refuse ID tokens signed
   * with a newly rotated key for up to a minute. Fresh, each sign-in reads the current JWKS (one
   * small request per sign-in), and a rotated key works at once.
   */
  private async configuration(): Promise<client.Configuration> {
    const at = this.now().getTime();
    if (!this.metadata || at - this.metadata.at > DISCOVERY_TTL_MS) {
      let discovered: client.Configuration;
      try {
        discovered = await client.discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
          execute: this.insecure() ? [client.allowInsecureRequests] : [],
          timeout: 10,
        });
      } catch (e) {
        this.logger?.error(`OpenID Connect discovery at ${this.settings.issuer} failed`, e);
        throw new ServiceError('unavailable', ssoUnreachableMessage(this.settings.displayName), undefined, 30);
      }
      this.metadata = { value: discovered.serverMetadata(), at };
    }
    const config = new client.Configuration(this.metadata.value, this.settings.clientId, this.settings.clientSecret);
    if (this.insecure()) client.allowInsecureRequests(config);
    // Without this openid-client trusts the TLS channel and never checks the ID token's signature
    // (OIDC Core 3.1.3.7 allows that); we check it against the provider's JWKS, as the issue asks.
    client.enableNonRepudiationChecks(config);
    return config;
  }

  /** Plain http is allowed only for a provider on this machine (tests, a local Keycloak). */
  private insecure(): boolean {
    const url = new URL(this.settings.issuer);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  }

  /** Where the provider sends the browser back; registered at the provider as the redirect URI. */
  static redirectUri(baseUrl: string): string {
    return `${baseUrl}/users/auth/oidc/callback`;
  }

  /** Starts a sign-in: the provider's authorization URL and the sealed flow cookie for this browser. */
  async start(baseUrl: string, returnTo: string | null, invite?: string): Promise<{ url: string; flowCookie: string; maxAgeSeconds: number }> {
    const config = await this.configuration();
    const flow: FlowState = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      redirectUri: OidcRelyingParty.redirectUri(baseUrl),
      returnTo,
      ...(invite ? { invite } : {}),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      scope: this.settings.scopes.join(' '),
      response_type: 'code',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    const expires = new Date(this.now().getTime() + FLOW_MINUTES * 60_000);
    return { url: url.href, flowCookie: sealCookieValue(this.keys, FLOW_PURPOSE, flow, expires), maxAgeSeconds: FLOW_MINUTES * 60 };
  }

  /**
   * Finishes a sign-in from the provider's redirect: checks state against the flow cookie,
   * exchanges the code (with the PKCE verifier) and validates the ID token. Any failure is a
   * 400 ServiceError whose message may be shown; the library's detail goes to the log only.
   */
  async finish(callbackQuery: string, flowCookie: string | undefined): Promise<{ identity: ProviderIdentity; returnTo: string | null; invite?: string }> {
    const flow = openCookieValue<FlowState>(this.keys, FLOW_PURPOSE, flowCookie, this.now());
    if (!flow) throw new ServiceError('bad_request', SSO_FLOW_LOST_MESSAGE);
    const params = new URLSearchParams(callbackQuery);
    const providerError = params.get('error');
    if (providerError) {
      this.logger?.info('OpenID Connect provider refused the sign-in', { error: providerError.slice(0, 100), description: params.get('error_description')?.slice(0, 200) });
      throw new ServiceError('bad_request', providerError === 'access_denied' ? SSO_CANCELLED_MESSAGE : SSO_PROVIDER_REFUSED_MESSAGE);
    }
    const config = await this.configuration();
    const currentUrl = new URL(flow.redirectUri);
    currentUrl.search = params.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (e) {
      this.logger?.info('OpenID Connect sign-in refused', { reason: (e as Error).message?.slice(0, 300), code: (e as { code?: string }).code });
      throw new ServiceError('bad_request', SSO_UNVERIFIABLE_MESSAGE);
    }
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new ServiceError('bad_request', SSO_UNVERIFIABLE_MESSAGE);
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    const rawGroups = claims[this.settings.groupsClaim];
    const groups = (Array.isArray(rawGroups) ? rawGroups : [rawGroups]).filter((g): g is string => typeof g === 'string' && g.length <= 200).slice(0, 500);
    return {
      identity: {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        emailVerified: claims.email_verified === true || this.settings.emailAlwaysVerified,
        groups,
        idToken: tokens.id_token,
      },
      returnTo: flow.returnTo,
      invite: flow.invite,
    };
  }

  /** The sealed logout hint kept beside an SSO session (the ID token, for id_token_hint). */
  logoutCookie(identity: ProviderIdentity, maxAgeDays: number): string {
    return sealCookieValue(this.keys, LOGOUT_PURPOSE, { idToken: identity.idToken }, new Date(this.now().getTime() + maxAgeDays * 86_400_000));
  }

  /**
   * Where to send the browser after the local sign-out so the provider ends its session too
   * (RP-initiated logout), or null when the provider offers none or this was no SSO session.
   */
  async logoutUrl(logoutCookie: string | undefined, postLogoutRedirectUri: string): Promise<string | null> {
    const hint = openCookieValue<{ idToken: string }>(this.keys, LOGOUT_PURPOSE, logoutCookie, this.now());
    if (!hint) return null;
    let config: client.Configuration;
    try {
      config = await this.configuration();
    } catch {
      return null; // The local session is ended either way; the provider cannot be reached.
    }
    if (!config.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, { id_token_hint: hint.idToken, post_logout_redirect_uri: postLogoutRedirectUri, client_id: this.settings.clientId }).href;
  }
}
