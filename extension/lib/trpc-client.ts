import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '../../server/http/trpc/app-router';

/** The tRPC client of the server's router: its type only, never its code. */
export function createClient(url: string, headers: Record<string, string>, fetchImpl: typeof fetch) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url,
        headers: () => headers,
        // Keeps the status and Retry-After of answers tRPC would only call "not JSON" (http-failure.ts).
        fetch: fetchImpl as never,
      }),
    ],
  });
}
