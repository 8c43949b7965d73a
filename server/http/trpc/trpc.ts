import { initTRPC, TRPCError } from '@trpc/server';
import { ServiceError } from '../../service-error.js';
import { StorageUnavailableError } from '../../storage/store.js';
import { INTERNAL_ERROR_MESSAGE } from '../rest/error-response.js';
import type { RequestContext } from '../request-context.js';

const codeOf = {
  bad_request: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  validation: 'UNPROCESSABLE_CONTENT',
  conflict: 'CONFLICT',
  too_many_requests: 'TOO_MANY_REQUESTS',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unavailable: 'SERVICE_UNAVAILABLE',
  // tRPC has no 507: the storage cap is "try again later" to a tRPC client.
  insufficient_storage: 'SERVICE_UNAVAILABLE',
  // tRPC has no 425: the code says "not yet", and the HTTP status is set to 425 below.
  too_early: 'PRECONDITION_FAILED',
} as const;

/**
 * tRPC is initialised once; every domain router builds on these. Service errors keep their
 * meaning: the code maps to the HTTP status, and 422's field messages travel in
 * `error.data.fieldErrors` so the extension can show each next to its control.
 */
const t = initTRPC.context<RequestContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const fieldErrors =
      cause instanceof ServiceError && cause.fieldErrors
        ? cause.fieldErrors
        : error.code === 'BAD_REQUEST' && cause && 'issues' in cause
          ? Object.fromEntries(
              ((cause as unknown as { issues: { path: PropertyKey[]; message: string }[] }).issues ?? []).map((i) => [String(i.path[0] ?? 'input'), [i.message]]),
            )
          : undefined;
    // An unexpected failure's own message (a file path, PostgreSQL's error text) stays in the
    // log (app.ts's onError); the client gets REST's words for it.
    const message = error.code === 'INTERNAL_SERVER_ERROR' ? INTERNAL_ERROR_MESSAGE : shape.message;
    const httpStatus = cause instanceof ServiceError && cause.kind === 'too_early' ? cause.status : shape.data.httpStatus;
    const notBefore = cause instanceof ServiceError && cause.kind === 'too_early' ? (cause.body.not_before as string) : undefined;
    return { ...shape, message, data: { ...shape.data, httpStatus, stack: undefined, fieldErrors, notBefore } };
  },
});

/** Service errors thrown in procedures become TRPCErrors with the matching code. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof ServiceError) {
      result.error = new TRPCError({ code: codeOf[cause.kind], message: cause.message, cause });
    } else if (cause instanceof StorageUnavailableError) {
      result.error = new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: `The server cannot store data right now: ${cause.message}`, cause });
    }
  }
  return result;
});

/** Wrong credentials are refused outright, as on the REST API. */
const rejectBadCredentials = t.middleware(({ ctx, next }) => {
  if (ctx.badCredentials) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Invalid API token.' });
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapErrors).use(rejectBadCredentials);
export const createCallerFactory = t.createCallerFactory;

/** Procedures that need a signed-in account (API token). */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in with an API token to do this.' });
  return next({ ctx: { ...ctx, user: ctx.user } });
});
