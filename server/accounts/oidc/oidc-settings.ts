import { z } from 'zod';

/**
 * Settings of the sign-in methods beside e-mail + password: an OpenID Connect provider,
 * SSO_ONLY and SIGN_UP_EMAIL_DOMAINS. Kept apart from config.ts so that the other sign-in lanes
 * (TOTP, passkeys) do not edit the same lines.
 */
export const oidcEnvSchema = {
  /** The provider's issuer URL; its /.well-known/openid-configuration is read at first use. */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** Unset: a public client (PKCE only, no client secret). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The name on the button: "Sign in with <name>". */
  OIDC_DISPLAY_NAME: z.string().min(1).max(60).default('SSO'),
  /** Space- or comma-separated; openid is always asked for, email is needed to find the account. */
  OIDC_SCOPES: z.string().default('openid email profile'),
  /**
   * For providers that send no email_verified claim but whose addresses the organisation itself
   * assigns (Entra ID work accounts): their e-mail is treated as verified. Off by default.
   */
  OIDC_EMAIL_ALWAYS_VERIFIED: z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).optional(),
  /** Members of this group at the provider are administrators, decided again at each SSO sign-in. */
  OIDC_ADMIN_GROUP: z.string().min(1).max(200).optional(),
  /** The ID token claim that lists the person's groups (a list of strings, or one string). */
  OIDC_GROUPS_CLAIM: z.string().min(1).max(100).default('groups'),
  /** Comma list of e-mail domains that may sign up or be created (passwords, SSO and the CLI alike). */
  SIGN_UP_EMAIL_DOMAINS: z.string().optional(),
  SSO_ONLY: z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).optional(),
};

type OidcEnv = z.infer<z.ZodObject<typeof oidcEnvSchema>>;

const truthy = (v: string | undefined) => v !== undefined && ['true', '1', 'yes', 'on'].includes(v);

/** Settings that only make sense together are refused at start, not discovered at the first sign-in. */
export function checkOidcEnv(e: OidcEnv, ctx: z.RefinementCtx) {
  if (Boolean(e.OIDC_ISSUER) !== Boolean(e.OIDC_CLIENT_ID)) {
    ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'OIDC_ISSUER and OIDC_CLIENT_ID must be set together' });
  }
  if (truthy(e.SSO_ONLY) && !e.OIDC_ISSUER) {
    ctx.addIssue({ code: 'custom', path: ['SSO_ONLY'], message: 'SSO_ONLY=true needs an OpenID Connect provider (OIDC_ISSUER and OIDC_CLIENT_ID): nobody could sign in' });
  }
  if (e.OIDC_ADMIN_GROUP && !e.OIDC_ISSUER) {
    ctx.addIssue({ code: 'custom', path: ['OIDC_ADMIN_GROUP'], message: 'OIDC_ADMIN_GROUP needs an OpenID Connect provider (OIDC_ISSUER and OIDC_CLIENT_ID)' });
  }
  for (const domain of splitList(e.SIGN_UP_EMAIL_DOMAINS)) {
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain)) {
      ctx.addIssue({ code: 'custom', path: ['SIGN_UP_EMAIL_DOMAINS'], message: `"${domain}" is not a domain name (write example.com, without @)` });
    }
  }
}

function splitList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  displayName: string;
  scopes: string[];
  emailAlwaysVerified: boolean;
  /** OIDC_ADMIN_GROUP (undefined: the provider's groups grant nothing). */
  adminGroup: string | undefined;
  groupsClaim: string;
}

export interface SignInSettings {
  oidc: OidcSettings | undefined;
  /** Password sign-in, sign-up and password changes are off; API tokens and the CLI still work. */
  ssoOnly: boolean;
  /** Empty: any domain. */
  signUpEmailDomains: string[];
}

export function signInSettings(e: OidcEnv): SignInSettings {
  const scopes = new Set(['openid', ...e.OIDC_SCOPES.split(/[\s,]+/).filter(Boolean)]);
  return {
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            displayName: e.OIDC_DISPLAY_NAME,
            scopes: [...scopes],
            emailAlwaysVerified: truthy(e.OIDC_EMAIL_ALWAYS_VERIFIED),
            adminGroup: e.OIDC_ADMIN_GROUP,
            groupsClaim: e.OIDC_GROUPS_CLAIM,
          }
        : undefined,
    ssoOnly: truthy(e.SSO_ONLY),
    signUpEmailDomains: splitList(e.SIGN_UP_EMAIL_DOMAINS),
  };
}
