/**
 * Who is an administrator, decided in one place. Three sources grant the role: the account's
 * stored flag (`npm run users -- admin <email>`), ADMIN_EMAILS, and, once single sign-on exists,
 * a group claim of the identity provider (OIDC_ADMIN_GROUP). The SSO lane passes the groups of
 * the sign-in in `ssoGroups`; nothing here reads a token.
 */
export interface AdminSources {
  /** ADMIN_EMAILS, lower-cased. */
  adminEmails: ReadonlySet<string>;
  /** OIDC_ADMIN_GROUP: members of this group at the identity provider are administrators. */
  oidcAdminGroup?: string;
}

export interface AccountForRole {
  email: string;
  admin?: boolean;
  /** The groups the identity provider reported at this account's sign-in (SSO seam; absent without SSO). */
  ssoGroups?: readonly string[];
}

export function isAdministrator(account: AccountForRole, sources: AdminSources): boolean {
  if (account.admin === true) return true;
  if (sources.adminEmails.has(account.email.toLowerCase())) return true;
  return Boolean(sources.oidcAdminGroup && account.ssoGroups?.includes(sources.oidcAdminGroup));
}

export const noAdminSources: AdminSources = { adminEmails: new Set() };
