import { z } from 'zod';
import { pageSchema, retrieveInputSchema, tokenSchema, type PushInput } from '../../../shared/push-schema.js';
import type { EmailLinkInput } from '../../../shared/email-link-schema.js';
import type { PushService } from '../../pushes/push-service.js';
import { publicProcedure, router } from './trpc.js';
import type { BatchInput } from '../../../shared/batch-schema.js';
import type { BatchService } from '../../pushes/batch/batch-service.js';

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

/** A batch create's input, checked by the batch service (422 with each bad row's number). */
const batchInput = z.custom<BatchInput>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { error: 'the body must be a batch: {push, recipients | recipients_csv}' });

export function pushRouter(pushes: PushService, batches: BatchService) {
  const api = publicProcedure.use(({ ctx, next }) => {
    pushes.assertApiAccess(ctx);
    return next();
  });
  return router({
    create: api.input(createInput).mutation(({ ctx, input }) => pushes.create(ctx, input)),
    retrieve: api.input(retrieveInputSchema).mutation(({ ctx, input }) => pushes.retrieve({ ...ctx, openedProofs: input.opened_proofs }, input.url_token, input.passphrase)),
    /** The retrieval and, for a push that others follow (linked secrets), the proof to give their retrievals as opened_proofs. */
    retrieveWithProof: api
      .input(retrieveInputSchema)
      .mutation(async ({ ctx, input }) => {
        const { push, openedProof } = await pushes.retrieveWithProof({ ...ctx, openedProofs: input.opened_proofs }, input.url_token, input.passphrase);
        return { push, opened_proof: openedProof };
      }),
    batch: api.input(batchInput).mutation(({ ctx, input }) => batches.create(ctx, input)),
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

