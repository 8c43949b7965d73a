import type { CatalogueService } from '../../catalogue/catalogue-service.js';
import type { PushService } from '../../pushes/push-service.js';
import { createCatalogueRouter } from './catalogue-router.js';
import { pushRouter } from './push-router.js';
import type { BatchService } from '../../pushes/batch/batch-service.js';
import type { WebhookService } from '../../webhooks/webhook-service.js';
import { webhookRouter } from './webhook-router.js';
import type { RequestService } from '../../requests/request-service.js';
import { requestRouter } from './request-router.js';
import { publicProcedure, router } from './trpc.js';

/** One router per domain, composed here; the extension imports only `type AppRouter`. */
export function createAppRouter(pushes: PushService, catalogue: CatalogueService, webhooks: WebhookService, requests: RequestService, batches: BatchService) {
  return router({
    version: publicProcedure.query(() => pushes.versionDocument()),
    limits: publicProcedure.query(() => pushes.pushLimits()),
    pushes: pushRouter(pushes, batches),
    webhooks: webhookRouter(webhooks),
    requests: requestRouter(requests),
    catalogue: createCatalogueRouter(() => catalogue),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
