import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '../../server/http/trpc/app-router';
import { TRPC_MAX_BATCH_SIZE } from '../../shared/trpc-limits';

/** The tRPC client of the server's router: its type only, never its code. */
export function createClient(url: string, headers: Record<string, string>, fetchImpl: typeof fetch) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url,
        // The server refuses larger batches (a popup may ask for many things at once).
        maxItems: TRPC_MAX_BATCH_SIZE,
        headers: () => headers,
        // Keeps the status and Retry-After of answers tRPC would only call "not JSON" (http-failure.ts).
        fetch: fetchImpl as never,
      }),
    ],
  });
}
