import { z } from 'zod';
import type { RequestAnswerInput, RequestInput } from '../../../shared/request-schema.js';
import { pageSchema, tokenSchema } from '../../../shared/push-schema.js';
import type { RequestService } from '../../requests/request-service.js';
import { publicProcedure, router } from './trpc.js';

/** Secret requests over tRPC: the same service calls as REST; the service checks the input. */
const objectInput = <T>() => z.custom<T>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { error: 'an object is required' });

export function requestRouter(requests: RequestService) {
  return router({
    create: publicProcedure.input(objectInput<RequestInput>()).mutation(({ ctx, input }) => requests.create(ctx, input)),
    // 50 a page, newest first, as pushes.active: `{page}` for the older ones.
    list: publicProcedure.input(pageSchema.optional()).query(({ ctx, input }) => requests.list(ctx, input?.page ?? 1)),
    show: publicProcedure.input(tokenSchema).query(({ input }) => requests.show(input.url_token)),
    answer: publicProcedure
      .input(tokenSchema.extend({ answer: objectInput<RequestAnswerInput>() }))
      .mutation(({ ctx, input }) => requests.answer(ctx, input.url_token, input.answer)),
    close: publicProcedure.input(tokenSchema).mutation(({ ctx, input }) => requests.close(ctx, input.url_token)),
  });
}
