import { createPrivateKey, createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the test provider can sign in (the login form takes their id). */
export interface TestAccount {
  id: string;
  email: string;
  emailVerified: boolean;
  /** What the provider lists in the ID token's `groups` claim. */
  groups?: string[];
}

export const TEST_CLIENT_ID = 'secret-push';
export const TEST_CLIENT_SECRET = 'a-client-secret-for-tests-only';

type PrivateJwk = Record<string, string>;

function newSigningKey(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as PrivateJwk), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/** Signs claims as an RS256 JWT with `jwk` (to forge ID tokens the provider would never issue). */
export function signJwt(claims: Record<string, unknown>, jwk: PrivateJwk): string {
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part({ alg: 'RS256', typ: 'JWT', kid: jwk.kid })}.${part(claims)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(createPrivateKey({ key: jwk, format: 'jwk' }));
  return `${input}.${signature.toString('base64url')}`;
}

export function decodeJwt(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * A real OpenID Provider (oidc-provider, a certified implementation) on an ephemeral loopback
 * port, with one confidential client and test accounts. Its login page is a one-field form
 * (the account id); consent is granted for the first-party client. Tests may rewrite the ID
 * token the token endpoint returns (`tamperIdToken`, re-signed with the provider's own key or
 * another) and rotate the signing key.
 */
export async function startTestProvider(accounts: TestAccount[]) {
  let provider: Provider | undefined;
  let keys: PrivateJwk[] = [newSigningKey()];
  let redirectUris: string[] = [];
  let postLogoutRedirectUris: string[] = [];
  let tamper: ((idToken: string) => string) | undefined;
  const byId = new Map(accounts.map((a) => [a.id, a]));

  const http = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  function build() {
    const p = new Provider(issuer, {
      clients: [
        {
          client_id: TEST_CLIENT_ID,
          client_secret: TEST_CLIENT_SECRET,
          redirect_uris: redirectUris,
          post_logout_redirect_uris: postLogoutRedirectUris,
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys },
      cookies: { keys: ['cookie-key-for-tests-only'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx, id) {
        const account = byId.get(id);
        if (!account) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified, groups: account.groups ?? [] }) };
      },
      // The first-party client needs no consent screen: the grant is made at once.
      async loadExistingGrant(ctx) {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope('openid email profile groups');
        await grant.save();
        return grant;
      },
    });
    p.on('server_error', (_ctx, err) => console.error('oidc-provider server_error', err));
    return p;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!provider) {
      res.writeHead(503).end('no client configured yet');
      return;
    }
    const p = provider;
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      try {
        if (req.method === 'GET') {
          const details = await p.interactionDetails(req, res);
          // `rel=icon` data:, says the page has no icon: without it Chromium asks for /favicon.ico,
          // gets the provider's 404 and logs it as a console error, once per browser and origin,
          // so the first page test through each provider failed and its retry passed.
          res.writeHead(200, { 'content-type': 'text/html' }).end(
            `<!doctype html><title>Test provider sign-in</title><link rel="icon" href="data:,"><form method="post" action="/interaction/${details.uid}"><label>Account <input name="login" id="login"></label><button type="submit" id="provider-sign-in">Sign in at the provider</button></form>`,
          );
          return;
        }
        let body = '';
        for await (const chunk of req) body += chunk;
        const login = new URLSearchParams(body).get('login') ?? '';
        if (!byId.has(login)) {
          res.writeHead(400).end('unknown test account');
          return;
        }
        await p.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      } catch (e) {
        res.writeHead(400).end(String(e));
      }
      return;
    }
    if (url.pathname === '/token' && tamper) {
      // Rewrite the JSON answer's id_token before it leaves (koa ends with one res.end(body)).
      const end = res.end.bind(res);
      const t = tamper;
      res.end = ((chunk: unknown, ...rest: unknown[]) => {
        if (chunk && !res.headersSent) {
          const answer = JSON.parse(String(chunk)) as { id_token?: string };
          if (answer.id_token) answer.id_token = t(answer.id_token);
          const text = JSON.stringify(answer);
          res.setHeader('content-length', Buffer.byteLength(text));
          return end(text);
        }
        return end(chunk as never, ...(rest as []));
      }) as typeof res.end;
    }
    p.callback()(req, res);
  }

  /**
   * The provider's side of a sign-in, as a browser would go through it: from the authorization
   * URL our server redirected to, through the provider's login form (signing in as `accountId`),
   * to the redirect back; returns that redirect's URL (our callback with code and state).
   */
  async function signIn(authorizationUrl: string, accountId: string): Promise<string> {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    let method = 'GET';
    let body: string | undefined;
    for (let hop = 0; hop < 10; hop++) {
      if (!url.startsWith(issuer)) return url;
      const res = await fetch(url, {
        method,
        body,
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (res.status === 200 && new URL(url).pathname.startsWith('/interaction/')) {
        await res.text();
        method = 'POST';
        body = new URLSearchParams({ login: accountId }).toString();
        continue;
      }
      if (!location) throw new Error(`the provider answered ${res.status} at ${url}: ${(await res.text()).slice(0, 300)}`);
      await res.text();
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    signIn,
    /** The provider's account by id (tests change its groups between sign-ins). */
    account: (id: string) => byId.get(id)!,
    /** Registers the relying party's redirect URI (and post-logout URI); (re)builds the provider. */
    setClient(redirectUri: string[], postLogout: string[]) {
      redirectUris = redirectUri;
      postLogoutRedirectUris = postLogout;
      provider = build();
    },
    /** The current signing key (private), to re-sign tampered tokens as the provider would. */
    get signingKey(): PrivateJwk {
      return keys[0]!;
    },
    /** A new signing key replaces the old one (JWKS then publishes only the new key). */
    rotateKeys() {
      keys = [newSigningKey()];
      provider = build();
    },
    tamperIdToken(fn: ((idToken: string) => string) | undefined) {
      tamper = fn;
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

export type TestProvider = Awaited<ReturnType<typeof startTestProvider>>;
