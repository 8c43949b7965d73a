import { z } from 'zod';
import type { WebhookInput } from '../../../shared/webhook-schema.js';
import type { WebhookService } from '../../webhooks/webhook-service.js';
import { publicProcedure, router } from './trpc.js';

/** Webhook endpoints over tRPC: the same service calls as REST; the service checks the input. */
const createInput = z.custom<WebhookInput>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { error: 'a webhook object is required' });

export function webhookRouter(webhooks: WebhookService) {
  return router({
    list: publicProcedure.query(({ ctx }) => webhooks.list(ctx)),
    deliveries: publicProcedure.query(({ ctx }) => webhooks.deliveries(ctx)),
    create: publicProcedure.input(createInput).mutation(({ ctx, input }) => webhooks.create(ctx, input)),
    remove: publicProcedure.input(z.object({ id: z.string().min(1).max(100) })).mutation(async ({ ctx, input }) => {
      await webhooks.remove(ctx, input.id);
      return { removed: true };
    }),
  });
}
