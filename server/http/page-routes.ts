import { Hono } from 'hono';
import type { AccountService } from '../accounts/account-service.js';
import type { OidcRelyingParty } from '../accounts/oidc/relying-party.js';
import { oidcRoutes } from './pages/oidc-routes.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PushService } from '../pushes/push-service.js';
import type { SlicedUploads } from '../pushes/sliced-upload.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import { webhookPageRoutes } from './pages/webhook-routes.js';
import type { RequestService } from '../requests/request-service.js';
import { requestPageRoutes } from './pages/request-routes.js';
import type { AppEnv } from './app-env.js';
import { accountRoutes } from './pages/account-routes.js';
import type { SignInSteps } from './pages/sign-in-steps/sign-in-steps.js';
import { signInStepRoutes } from './pages/sign-in-steps/sign-in-step-routes.js';
import { accountEmailRoutes } from './pages/account-email-routes.js';
import type { AccountMail } from '../accounts/account-mail.js';
import { createRoutes } from './pages/create-routes.js';
import { pageErrorResponse } from './pages/page-errors.js';
import { previewRoutes } from './pages/preview-routes.js';
import { emailLinkRoutes } from './pages/email-link/email-link-routes.js';
import { recipientRoutes } from './pages/recipient-routes.js';
import { uploadPageRoutes } from './pages/upload-page-routes.js';
import type { AdminService } from '../admin/admin-service.js';
import type { InviteService } from '../admin/invite-service.js';
import { adminPageRoutes } from './pages/admin/admin-routes.js';
import { extensionPrivacyRoutes } from './pages/privacy/extension-privacy-page.js';

export interface PageDeps {
  config: Config;
  pushes: PushService;
  uploads: SlicedUploads;
  accounts: AccountService;
  signInSteps: SignInSteps;
  webhooks: WebhookService;
  requests: RequestService;
  /** Present when an OpenID Connect provider is configured (OIDC_ISSUER). */
  oidc?: OidcRelyingParty;
  admin: AdminService;
  invites: InviteService;
  /** Account e-mails (reset, confirmation); absent or disabled without SMTP_URL. */
  accountMail?: AccountMail;
  /** For unexpected errors (optional: without it only the error's name reaches stderr). */
  logger?: Logger;
}

/**
 * The server-rendered HTML pages: recipient pages (/p/:token/r, /p/:token), the sender's
 * preview (/p/:token/preview), the create page
 * (/, with its sliced uploads at /uploads), account pages (/users/*) and the dashboard. Each handler reads the session cookie,
 * calls a service and renders; errors become HTML pages, never JSON or a stack trace.
 */
export function createPageRoutes(deps: PageDeps): Hono<AppEnv> {
  const { config, pushes, accounts } = deps;
  const app = new Hono<AppEnv>();
  app.onError((error, c) => pageErrorResponse(c, error, deps.logger));
  app.route('/', previewRoutes(pushes, accounts));
  // "E-mail the link…" (the service refuses it when e-mail is not set up; the pages do not offer it then).
  app.route('/', emailLinkRoutes(pushes, accounts));
  app.route('/', recipientRoutes(pushes, accounts));
  app.route('/', createRoutes(config, pushes, deps.uploads, accounts));
  app.route('/', uploadPageRoutes(deps.uploads, accounts, config.maxJsonBodyBytes, deps.logger));
  if (deps.oidc) app.route('/', oidcRoutes(deps.oidc, accounts, deps.invites, deps.logger));
  app.route('/', accountRoutes(config, pushes, accounts, deps.signInSteps, deps.invites, deps.accountMail, deps.oidc));
  if (deps.accountMail?.enabled) app.route('/', accountEmailRoutes(accounts, deps.accountMail));
  app.route('/', signInStepRoutes(accounts, deps.signInSteps));
  app.route('/', adminPageRoutes(config, accounts, deps.admin, deps.invites));
  app.route('/', webhookPageRoutes(accounts, deps.webhooks));
  app.route('/', requestPageRoutes(config, accounts, deps.requests, pushes));
  app.route('/', extensionPrivacyRoutes());
  return app;
}
