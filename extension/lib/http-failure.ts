import { watchNetError } from './net-errors';

/**
 * An HTTP answer that is not tRPC's own (a rate limiter, a proxy, a wrong address), or any
 * 429: thrown by the API client's fetch so that the status and `Retry-After` survive to the
 * message the user reads.
 */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterSeconds: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'HttpFailure';
  }
}

/** `Retry-After` as seconds from now: either a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * tRPC answers errors as `{error: {code, message, data}}` (one call) or an array of them (a
 * batch); `{error: "text"}` is the REST error shape of a middleware in front (body limit, …).
 */
function isTrpcAnswer(body: unknown): boolean {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  if (typeof first !== 'object' || first === null) return false;
  const { error, result } = first as { error?: unknown; result?: unknown };
  return (typeof error === 'object' && error !== null) || result !== undefined;
}

/** Wraps fetch: tRPC's own error answers pass through (their codes and field messages are read later). */
export function checkedFetch(fetchImpl: () => typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const net = watchNetError(url);
    let res: Response;
    try {
      res = await fetchImpl()(input, init);
    } catch (err) {
      // Keep the browser's reason (a certificate, a refused connection) for the message.
      const reason = err instanceof TypeError ? await net.reason() : undefined;
      if (reason !== undefined) Object.assign(err as object, { netError: reason });
      throw err;
    } finally {
      net.stop();
    }
    if (res.ok) return res;
    const retry = retryAfterSeconds(res.headers.get('Retry-After'));
    const body: unknown = await res
      .clone()
      .json()
      .catch(() => null);
    if (res.status !== 429 && isTrpcAnswer(body)) return res;
    const said = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : '';
    throw new HttpFailure(res.status, retry, said || `HTTP ${res.status}`);
  };
}
