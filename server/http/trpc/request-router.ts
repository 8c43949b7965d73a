import { z } from 'zod';
import type { RequestAnswerInput, RequestInput } from '../../../shared/request-schema.js';
import { tokenSchema } from '../../../shared/push-schema.js';
import type { RequestService } from '../../requests/request-service.js';
import { publicProcedure, router } from './trpc.js';

/** Secret requests over tRPC: the same service calls as REST; the service checks the input. */
const objectInput = <T>() => z.custom<T>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { error: 'an object is required' });

export function requestRouter(requests: RequestService) {
  return router({
    create: publicProcedure.input(objectInput<RequestInput>()).mutation(({ ctx, input }) => requests.create(ctx, input)),
    list: publicProcedure.query(({ ctx }) => requests.list(ctx)),
    show: publicProcedure.input(tokenSchema).query(({ input }) => requests.show(input.url_token)),
    answer: publicProcedure
      .input(tokenSchema.extend({ answer: objectInput<RequestAnswerInput>() }))
      .mutation(({ ctx, input }) => requests.answer(ctx, input.url_token, input.answer)),
    close: publicProcedure.input(tokenSchema).mutation(({ ctx, input }) => requests.close(ctx, input.url_token)),
  });
}
