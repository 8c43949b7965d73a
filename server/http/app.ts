import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getPath } from 'hono/utils/url';
import type { AccountService } from '../accounts/account-service.js';
import type { SignInSteps } from './pages/sign-in-steps/sign-in-steps.js';
import type { CatalogueService } from '../catalogue/catalogue-service.js';
import type { OidcRelyingParty } from '../accounts/oidc/relying-party.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { LimitCounters } from '../storage/store.js';
import type { PushService } from '../pushes/push-service.js';
import type { SlicedUploads } from '../pushes/sliced-upload.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import { webhookRoutes } from './rest/webhook-routes.js';
import type { RequestService } from '../requests/request-service.js';
import { requestRoutes } from './rest/request-routes.js';
import { StorageUnavailableError } from '../storage/store.js';
import { ServiceError } from '../service-error.js';
import type { AppEnv } from './app-env.js';
import { createCatalogueRoutes } from './catalogue-routes.js';
import { attachmentDisposition } from '../../shared/content-disposition.js';
import { neutraliseControls } from '../../shared/neutralise-controls.js';
import { createPageRoutes } from './page-routes.js';
import { notFoundPage, wantsHtmlPage } from './pages/browser-error-page.js';
import { pageErrorResponse } from './pages/page-errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { requestFrame } from './middleware/request-frame.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { healthRoutes } from './health-routes.js';
import type { Metrics } from '../observability/metrics.js';
import type { Readiness } from '../observability/readiness.js';
import { errorResponse } from './rest/error-response.js';
import { bodyCutOff, bodyTooLarge } from './request-body.js';
import { apiAccess, urlToken } from './rest/api-guards.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { v1Routes } from './rest/v1-routes.js';
import { uploadRoutes } from './rest/upload-routes.js';
import { v2Routes } from './rest/v2-routes.js';
import { batchCreateHandler } from './rest/batch-routes.js';
import { BatchService } from '../pushes/batch/batch-service.js';
import { batchPageRoutes } from './pages/batch/batch-routes.js';
import { staticAssets } from './static-assets.js';
import { streamDownload } from './stream-download.js';
import { createAppRouter } from './trpc/app-router.js';
import type { ExtensionConnectService } from '../accounts/extension-connect/connect-service.js';
import { extensionConnectRoutes } from './pages/extension-connect-routes.js';
import { extensionTokenRoute } from './rest/extension-token-route.js';
import type { AccountMail } from '../accounts/account-mail.js';

import { TRPC_MAX_BATCH_SIZE } from '../../shared/trpc-limits.js';
import type { AdminService } from '../admin/admin-service.js';
import type { InviteService } from '../admin/invite-service.js';
import { adminApiRoutes } from './rest/admin-routes.js';
import { loadBrand } from '../branding/brand.js';
import { brandRoutes } from './brand-routes.js';

export interface AppDeps {
  config: Config;
  pushes: PushService;
  /** Sliced uploads of end-to-end file pushes (rest/upload-routes.ts). */
  uploads: SlicedUploads;
  accounts: AccountService;
  /** Second factor and passkeys (pages only). */
  signInSteps: SignInSteps;
  webhooks: WebhookService;
  requests: RequestService;
  /** Present when an OpenID Connect provider is configured (OIDC_ISSUER). */
  oidc?: OidcRelyingParty;
  /** The extension's connect-by-signing-in (accounts/extension-connect/). */
  connect: ExtensionConnectService;
  /** Account e-mails; absent or disabled without SMTP_URL. */
  accountMail?: AccountMail;
  catalogue: CatalogueService;
  admin: AdminService;
  invites: InviteService;
  /** Where the rate limit counts (shared by every instance on a shared store). */
  counters: LimitCounters;
  logger: Logger;
  readiness: Readiness;
  /** Present when metrics are on (METRICS_TOKEN set). */
  metrics?: Metrics;
}

/** Routes every adapter onto the services; holds no rule of its own. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { config, pushes, accounts, logger } = deps;
  const app = new Hono<AppEnv>({ getPath: routingPath });
  const brand = loadBrand(config.brand, config.dataDir);

  app.route('/', healthRoutes(deps.readiness, deps.metrics && config.metricsToken ? { metrics: deps.metrics, token: config.metricsToken } : undefined));
  app.use(requestFrame(logger, deps.readiness, brand));
  if (deps.metrics) app.use(httpMetrics(deps.metrics));
  app.use(requestContext({ accounts, baseUrl: config.baseUrl, trustProxy: config.trustProxy, allowedHosts: new Set(config.allowedHosts) }));
  if (config.rateLimitPerMinute > 0) app.use(rateLimit(config.rateLimitPerMinute, deps.counters, () => deps.metrics?.rateLimited.inc()));
  // REST and page bodies are read with a byte cap (request-body.ts); tRPC reads the Fetch
  // Request itself, so Hono's body limit guards it.
  app.use(
    '/trpc/*',
    bodyLimit({
      maxSize: config.maxJsonBodyBytes,
      onError: (c) => errorResponse(c, bodyTooLarge(config.maxJsonBodyBytes), logger),
    }),
  );

  // A client that hung up mid-body made whatever was reading the body fail (tRPC reads it
  // itself, even for OPTIONS): the client's failure, a 400 without a logged stack, not a 500.
  app.onError((error, c) => {
    const cause = !(error instanceof ServiceError) && c.env?.incoming?.errored ? bodyCutOff() : error;
    // A person's browser gets a page; API clients keep their exact JSON (browser-error-page.tsx).
    return wantsHtmlPage(c) ? pageErrorResponse(c, cause, logger) : errorResponse(c, cause, logger);
  });
  app.notFound((c) => (wantsHtmlPage(c) ? notFoundPage(c) : c.json({ error: 'not-found' }, 404)));

  // One link per recipient (issue 35): rows count against BATCH_ROWS_PER_HOUR, the request once against the rate limit.
  const batches = new BatchService({ pushes, counters: deps.counters, batchRowsPerHour: config.batchRowsPerHour });
  // POST /api/v2/pushes/batch is answered by v2's POST /pushes/:token (a fixed sibling), which
  // keeps the app on RegExpRouter beside POST /pushes/:token/email; v2's guard covers it.
  app.route('/api/v2', v2Routes(pushes, config.limits.maxFileBytes, config.maxJsonBodyBytes, { batch: batchCreateHandler(batches, config.maxJsonBodyBytes) }));
  app.route('/api/v2/uploads', uploadRoutes(deps.uploads, { guard: [apiAccess(pushes)], actor: (c) => c.get('ctx') }, config.maxJsonBodyBytes));
  app.route('/api/v2/webhooks', webhookRoutes(deps.webhooks, config.maxJsonBodyBytes));
  app.route('/api/v2/secret-requests', requestRoutes(deps.requests, pushes, config.limits.maxFileBytes, config.maxJsonBodyBytes));
  app.route('/api/v2/admin', adminApiRoutes(deps.admin, deps.invites, config.maxJsonBodyBytes));
  app.get('/api/v2/openapi.json', (c) => c.json(buildOpenApiDocument(c.get('ctx').baseUrl)));

  const appRouter = createAppRouter(pushes, deps.catalogue, deps.webhooks, deps.requests, batches);
  app.all('/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: () => c.get('ctx'),
      // One request must not carry unbounded work (each call also counts against the rate limit).
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      // A 429 or 503 says when to come back, as on REST.
      responseMeta: ({ errors }) => {
        const retryAfter = errors
          .map((e) => (e.cause instanceof ServiceError ? e.cause.retryAfter : e.cause instanceof StorageUnavailableError ? e.cause.retryAfterSeconds : undefined))
          .find((s) => s !== undefined);
        return retryAfter ? { headers: new Headers({ 'Retry-After': String(retryAfter) }) } : {};
      },
      onError: ({ error }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') logger.error('tRPC procedure failed', error.cause ?? error);
      },
    }),
  );

  app.get('/p/:token/files/:fileId', async (c) => {
    const token = urlToken(c.req.param('token'));
    // One range (`bytes=a-b` or `bytes=a-`): end-to-end files are fetched so by Firefox's recipient page (shared/e2e/download-spool.ts).
    const asked = /^bytes=(\d{1,15})-(\d{1,15})?$/.exec(c.req.header('range') ?? '');
    const range = asked && (asked[2] === undefined || Number(asked[2]) >= Number(asked[1])) ? { start: Number(asked[1]), end: asked[2] === undefined ? undefined : Number(asked[2]) } : undefined;
    const file = await pushes.downloadFile(token, c.req.param('fileId'), c.req.query('exp'), c.req.query('ticket'), range);
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(file.range ? file.range.end - file.range.start : file.size),
      // The name a browser saves under: no bidirectional controls (a disguised extension).
      'Content-Disposition': attachmentDisposition(neutraliseControls(file.filename, '_')),
    };
    if (file.range) headers['Content-Range'] = `bytes ${file.range.start}-${file.range.end - 1}/${file.size}`;
    return streamDownload(c, file.stream, headers, logger, file.range ? 206 : 200);
  });

  app.route('/', brandRoutes(brand));
  app.route('/', extensionTokenRoute(deps.connect));
  app.route('/', extensionConnectRoutes(accounts, deps.connect));
  app.route('/', staticAssets());
  app.route('/', v1Routes(pushes, config.limits.maxFileBytes, config.maxJsonBodyBytes));
  app.route('/', createCatalogueRoutes(deps.catalogue));
  app.route('/', batchPageRoutes(config, batches, pushes, accounts));
  app.route('/', createPageRoutes({ config, pushes, uploads: deps.uploads, accounts, signInSteps: deps.signInSteps, webhooks: deps.webhooks, requests: deps.requests, admin: deps.admin, invites: deps.invites, accountMail: deps.accountMail, oidc: deps.oidc, logger }));
  return app;
}

/**
 * Some Password Pusher clients always append `.json` to v2 paths: routing ignores it. This is
 * done in the router's path, not by rebuilding the Request: a rebuilt Request takes over the
 * body stream, so a body the handler never read (a 401 or 404 before reading) could no longer
 * be drained, and the server closed the keep-alive connection under the client's next request.
 */
export function routingPath(request: Request): string {
  const path = getPath(request);
  if (path.endsWith('.json') && (path.startsWith('/api/v2/') || path === '/api/v1/version.json') && path !== '/api/v2/openapi.json') {
    return path.slice(0, -'.json'.length);
  }
  return path;
}
