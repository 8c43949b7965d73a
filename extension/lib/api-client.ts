import { restCreateRequest } from './rest-create';
import type {
  AuditEntry,
  OwnerPushRecord,
  PushInput,
  PushLimits,
  PushRecordBase,
  VersionDocument,
} from '../../shared/push-schema';
import type { OwnerRequest, RequestInput } from '../../shared/request-schema';
import type { EmailLinkInput } from '../../shared/email-link-schema';
import { checkedFetch } from './http-failure';

/**
 * What the extension asks of a Secret Push server. The popup and the background take a
 * `PushApi` as a parameter, so tests hand them a fake one; `createPushApi` is the real one,
 * talking tRPC (`<server>/trpc`) with the API token as a Bearer header.
 */
export interface PushApi {
  version(): Promise<VersionDocument>;
  limits(): Promise<PushLimits>;
  create(input: PushInput): Promise<OwnerPushRecord>;
  /** A push with files: REST v2's multipart create (tRPC carries no files). */
  createWithFiles(form: FormData): Promise<OwnerPushRecord>;
  active(page: number): Promise<OwnerPushRecord[]>;
  expired(page: number): Promise<OwnerPushRecord[]>;
  audit(urlToken: string, page: number): Promise<AuditEntry[]>;
  expire(urlToken: string): Promise<PushRecordBase>;
  /** The signed-in user's secret requests, newest first, 50 a page. */
  requests(page: number): Promise<OwnerRequest[]>;
  /** Closes one of the user's open requests: its link answers "closed" from then on. */
  closeRequest(urlToken: string): Promise<OwnerRequest>;
  createRequest(input: RequestInput): Promise<OwnerRequest>;
  /** E-mails the link of one of the user's pushes (servers with `limits.email_links`). */
  emailLink(input: EmailLinkInput): Promise<{ sent: number }>;
}

export interface ApiConnection {
  serverUrl: string;
  apiToken?: string;
  fetch?: typeof fetch;
}

export function trpcUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/trpc`;
}

/**
 * The tRPC client is loaded on the first call, in its own chunk: the popup draws before it has
 * parsed it (see scripts/bundle-size.ts).
 */
export function createPushApi({ serverUrl, apiToken, fetch: fetchImpl }: ApiConnection): PushApi {
  const token = apiToken?.trim();
  let client: ReturnType<typeof loadClient> | undefined;
  const loadClient = () =>
    import('./trpc-client').then(({ createClient }) =>
      createClient(trpcUrl(serverUrl), token ? { Authorization: `Bearer ${token}` } : {}, checkedFetch(() => fetchImpl ?? globalThis.fetch)),
    );
  const rawFetch = () => fetchImpl ?? globalThis.fetch;
  /** REST's 422 answers as the tRPC errors describeError reads: the field messages kept. */
  const restFetch = checkedFetch(() => async (input, init) => {
    const res = await rawFetch()(input, init);
    if (res.status !== 422) return res;
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    throw Object.assign(new Error(Object.values(body).flat().join(' ') || 'HTTP 422'), { data: { httpStatus: 422, fieldErrors: body } });
  });
  const call = async <T>(use: (c: Awaited<ReturnType<typeof loadClient>>) => Promise<T>): Promise<T> => use(await (client ??= loadClient()));
  return {
    version: () => call((c) => c.version.query()),
    limits: () => call((c) => c.limits.query()),
    create: (input) => call((c) => c.pushes.create.mutate(input)),
    createWithFiles: async (form) => {
      const res = await restFetch(...restCreateRequest(serverUrl, token, form));
      return (await res.json()) as OwnerPushRecord;
    },
    active: (page) => call((c) => c.pushes.active.query({ page })),
    expired: (page) => call((c) => c.pushes.expired.query({ page })),
    audit: (url_token, page) => call(async (c) => (await c.pushes.audit.query({ url_token, page })).logs),
    expire: (url_token) => call((c) => c.pushes.expire.mutate({ url_token })),
    requests: (page) => call((c) => c.requests.list.query({ page })),
    closeRequest: (url_token) => call((c) => c.requests.close.mutate({ url_token })),
    createRequest: (input) => call((c) => c.requests.create.mutate(input)),
    emailLink: (input) => call((c) => c.pushes.emailLink.mutate(input)),
  };
}
