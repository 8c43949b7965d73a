import type { PushService } from '../../pushes/push-service.js';
import { catalogueRouter } from './catalogue-router.js';
import { pushRouter } from './push-router.js';
import { publicProcedure, router } from './trpc.js';

/** One router per domain, composed here; the extension imports only `type AppRouter`. */
export function createAppRouter(pushes: PushService) {
  return router({
    version: publicProcedure.query(() => pushes.versionDocument()),
    limits: publicProcedure.query(() => pushes.pushLimits()),
    pushes: pushRouter(pushes),
    catalogue: catalogueRouter,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
