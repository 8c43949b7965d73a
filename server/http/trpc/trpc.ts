import { initTRPC, TRPCError } from '@trpc/server';
import type { RequestContext } from '../request-context.js';

/** tRPC is initialised once; every domain router builds on these. */
const t = initTRPC.context<RequestContext>().create();

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/** Procedures that need a signed-in account (API token). */
export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in with an API token to do this.' });
  return next({ ctx: { ...ctx, user: ctx.user } });
});
