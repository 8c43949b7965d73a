import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type {
  AuditEntry,
  OwnerPushRecord,
  PushInput,
  PushLimits,
  PushRecordBase,
  VersionDocument,
} from '../../shared/push-schema';
import type { AppRouter } from '../../server/http/trpc/app-router';

/**
 * What the extension asks of a Secret Push server. The popup and the background take a
 * `PushApi` as a parameter, so tests hand them a fake one; `createPushApi` is the real one,
 * talking tRPC (`<server>/trpc`) with the API token as a Bearer header.
 */
export interface PushApi {
  version(): Promise<VersionDocument>;
  limits(): Promise<PushLimits>;
  create(input: PushInput): Promise<OwnerPushRecord>;
  active(page: number): Promise<OwnerPushRecord[]>;
  expired(page: number): Promise<OwnerPushRecord[]>;
  audit(urlToken: string, page: number): Promise<AuditEntry[]>;
  expire(urlToken: string): Promise<PushRecordBase>;
}

export interface ApiConnection {
  serverUrl: string;
  apiToken?: string;
  fetch?: typeof fetch;
}

/** Page size of the active and expired lists (fixed by the server). */
export const PAGE_SIZE = 50;

export function trpcUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/trpc`;
}

export function createPushApi({ serverUrl, apiToken, fetch: fetchImpl }: ApiConnection): PushApi {
  const token = apiToken?.trim();
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: trpcUrl(serverUrl),
        headers: () => (token ? { Authorization: `Bearer ${token}` } : {}),
        // A late-bound fetch: tests may replace globalThis.fetch after the client is made.
        fetch: (input, init) => (fetchImpl ?? globalThis.fetch)(input as RequestInfo, init as RequestInit),
      }),
    ],
  });
  return {
    version: () => client.version.query(),
    limits: () => client.limits.query(),
    create: (input) => client.pushes.create.mutate(input),
    active: (page) => client.pushes.active.query({ page }),
    expired: (page) => client.pushes.expired.query({ page }),
    audit: async (url_token, page) => (await client.pushes.audit.query({ url_token, page })).logs,
    expire: (url_token) => client.pushes.expire.mutate({ url_token }),
  };
}
