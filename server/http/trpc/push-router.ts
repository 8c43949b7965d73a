import { z } from 'zod';
import { pageSchema, retrieveInputSchema, tokenSchema, type PushInput } from '../../../shared/push-schema.js';
import type { EmailLinkInput } from '../../../shared/email-link-schema.js';
import type { PushService } from '../../pushes/push-service.js';
import { publicProcedure, router } from './trpc.js';

/**
 * The push operations over tRPC, for the extension: the same service calls as REST v2.
 * Inputs are the shared zod schemas; the service applies every rule.
 */
/**
 * Create's input is typed by the shared push input schema, but checked by the service with that
 * same schema, as on REST: a wrong type is then the same 422 with field errors, not a 400.
 */
const createInput = z.custom<PushInput>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), {
  error: 'param is missing or the value is empty or invalid: push',
});

export function pushRouter(pushes: PushService) {
  const api = publicProcedure.use(({ ctx, next }) => {
    pushes.assertApiAccess(ctx);
    return next();
  });
  return router({
    create: api.input(createInput).mutation(({ ctx, input }) => pushes.create(ctx, input)),
    retrieve: api.input(retrieveInputSchema).mutation(({ ctx, input }) => pushes.retrieve(ctx, input.url_token, input.passphrase)),
    preview: api.input(tokenSchema).query(({ ctx, input }) => pushes.preview(ctx, input.url_token)),
    audit: api.input(tokenSchema.extend(pageSchema.shape)).query(({ ctx, input }) => pushes.auditLog(ctx, input.url_token, input.page)),
    // The same input as retrieve: a viewer deleting a push with a passphrase gives it.
    expire: api.input(retrieveInputSchema).mutation(({ ctx, input }) => pushes.expire(ctx, input.url_token, { passphrase: input.passphrase })),
    active: api.input(pageSchema.optional()).query(({ ctx, input }) => pushes.list(ctx, 'active', input?.page ?? 1)),
    expired: api.input(pageSchema.optional()).query(({ ctx, input }) => pushes.list(ctx, 'expired', input?.page ?? 1)),
    // The service parses it (422 with field errors, as create): typed here by the shared schema.
    emailLink: api.input(z.custom<EmailLinkInput>((v) => v !== null && typeof v === 'object' && !Array.isArray(v))).mutation(({ ctx, input }) => pushes.emailLink(ctx, input)),
  });
}

