import { HttpFailure } from './http-failure';
import { isTlsError } from './net-errors';

/**
 * Turns whatever a server call threw into words a person understands, plus field-level
 * messages for 422 answers so each can be shown next to the control it concerns.
 */

export type ProblemKind =
  | 'network'
  | 'tls'
  | 'no-access'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'invalid'
  | 'bad-request'
  | 'not-a-server'
  | 'too-large'
  | 'unavailable'
  | 'server'
  | 'unknown';

export interface Problem {
  kind: ProblemKind;
  /** One sentence for the whole failure. */
  message: string;
  /** Messages by input field (`expire_after_days`, `payload`, `kind`, …), already in plain words. */
  fields: Record<string, string>;
}

/** Labels of the push fields, as the form names them. */
export const fieldLabels: Record<string, string> = {
  payload: 'Secret',
  kind: 'Kind',
  expire_after_days: 'Days',
  expire_after_views: 'Views',
  expire_after_duration: 'Duration',
  passphrase: 'Passphrase',
  retrieval_step: 'Retrieval step',
  deletable_by_viewer: 'Deletable by viewer',
  name: 'Name',
  note: 'Note',
  page: 'Page',
  url_token: 'Push',
};

interface ErrorData {
  code?: string;
  httpStatus?: number;
  fieldErrors?: Record<string, unknown>;
}

function errorData(err: unknown): ErrorData | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const data = (err as { data?: unknown }).data;
  return data && typeof data === 'object' ? (data as ErrorData) : undefined;
}

function serverMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  return message.trim();
}

/** `{"expire_after_days": ["must be between 1 and 90"]}` → `{expire_after_days: "Days must be between 1 and 90."}` */
export function fieldMessages(fieldErrors: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fieldErrors) return out;
  for (const [field, raw] of Object.entries(fieldErrors)) {
    const list = (Array.isArray(raw) ? raw : [raw]).filter((m): m is string => typeof m === 'string' && m.trim() !== '');
    if (list.length === 0) continue;
    const label = fieldLabels[field] ?? field.replace(/_/g, ' ');
    out[field] = list
      .map((m) => {
        const text = m.trim();
        // "must be …" reads as part of a sentence; a full sentence ("URL pushes are disabled.") stands alone.
        const sentence = /^[a-z]/.test(text) ? `${label} ${text}` : text;
        return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
      })
      .join(' ');
  }
  return out;
}

/**
 * The browser's reason for a failed request, attached as `netError` by the API client's fetch
 * (see net-errors.ts): pages only get "Failed to fetch".
 */
function netErrorOf(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const own = (err as { netError?: unknown }).netError;
  const cause = (err as { cause?: { netError?: unknown } }).cause?.netError;
  return typeof own === 'string' ? own : typeof cause === 'string' ? cause : undefined;
}

function isNetworkFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const cause = (err as { cause?: unknown }).cause;
  const texts = [err.message, cause instanceof Error ? cause.message : ''];
  return (
    err.name === 'TypeError' ||
    cause instanceof TypeError ||
    texts.some((t) => /failed to fetch|networkerror|network request failed|load failed|fetch failed|ECONNREFUSED/i.test(t))
  );
}

function httpFailure(err: unknown): HttpFailure | undefined {
  if (err instanceof HttpFailure) return err;
  const cause = err && typeof err === 'object' ? (err as { cause?: unknown }).cause : undefined;
  return cause instanceof HttpFailure ? cause : undefined;
}

const waitFor = (seconds: number | undefined) =>
  seconds === undefined ? 'in a minute' : seconds <= 1 ? 'in a second' : seconds < 120 ? `in ${seconds} s` : `in ${Math.ceil(seconds / 60)} minutes`;

/** The words for an HTTP status, whoever answered (tRPC or something in front of it). */
function byStatus(status: number, said: string, signedIn: boolean, serverUrl: string, retryAfter?: number): Omit<Problem, 'fields'> | undefined {
  if (status === 401) {
    return {
      kind: 'unauthorized',
      message: signedIn
        ? 'The server did not accept your API token (401). Make a new one on the server and paste it in Settings.'
        : 'This needs an API token (401): make one on the server and paste it in Settings.',
    };
  }
  if (status === 403) {
    return { kind: 'forbidden', message: `The server refused this (403 Forbidden)${said ? `: ${said}` : ': your account may not do it.'}` };
  }
  if (status === 404) {
    return { kind: 'not-a-server', message: `${serverUrl} has no Secret Push API (404 Not Found). Check the address in Settings.` };
  }
  if (status === 413) return { kind: 'too-large', message: 'The secret is too large for this server (413).' };
  if (status === 429) return { kind: 'rate-limited', message: `Too many requests: try again ${waitFor(retryAfter)}.` };
  if (status === 503) return { kind: 'unavailable', message: `The server is unavailable right now (503)${said ? `: ${said}` : ''}. Try again later.` };
  if (status >= 500) return { kind: 'server', message: `The server failed (error ${status}). It is not something you did: try again later.` };
  return undefined;
}

/**
 * @param err what a `PushApi` call threw
 * @param serverUrl the server that was asked (named in network failures)
 * @param signedIn whether an API token was sent (changes what a 401 means)
 */
export function describeError(err: unknown, serverUrl: string, signedIn = false): Problem {
  const data = errorData(err);
  const fields = fieldMessages(data?.fieldErrors);
  const said = serverMessage(err);
  const status = data?.httpStatus;
  const code = data?.code;

  const http = httpFailure(err);
  if (http) {
    const known = byStatus(http.status, http.message.startsWith('HTTP ') ? '' : http.message, signedIn, serverUrl, http.retryAfterSeconds);
    if (known) return { ...known, fields: known.kind === 'too-large' ? { payload: known.message } : {} };
    return { kind: 'not-a-server', message: `${serverUrl} answered with error ${http.status}, not like a Secret Push server. Check the address in Settings.`, fields: {} };
  }

  if (!data) {
    const netError = netErrorOf(err);
    if (isTlsError(netError)) {
      return {
        kind: 'tls',
        message: `The secure connection to ${serverUrl} failed: the browser does not trust its certificate (${netError?.replace(/\.$/, '')}). Fix the server's certificate, or check the address in Settings.`,
        fields,
      };
    }
    if (isNetworkFailure(err)) {
      return {
        kind: 'network',
        message: `The server cannot be reached at ${serverUrl}. Check the address in Settings and that the server is running.`,
        fields,
      };
    }
    if (/transform|JSON|Unexpected token/i.test(said)) {
      return {
        kind: 'not-a-server',
        message: `${serverUrl} answered, but not like a Secret Push server. Check the address in Settings.`,
        fields,
      };
    }
    return { kind: 'unknown', message: said ? `Something went wrong: ${said}` : 'Something went wrong.', fields };
  }

  const statusOf: Record<string, number> = { UNAUTHORIZED: 401, FORBIDDEN: 403, PAYLOAD_TOO_LARGE: 413, TOO_MANY_REQUESTS: 429, SERVICE_UNAVAILABLE: 503 };
  const mapped = code && statusOf[code] ? statusOf[code] : status;
  if (code === 'NOT_FOUND' || status === 404) {
    return { kind: 'not-found', message: 'That push no longer exists on the server.', fields };
  }
  if (mapped && mapped !== 422 && mapped !== 400) {
    const known = byStatus(mapped, said, signedIn, serverUrl);
    if (known) return { ...known, fields: known.kind === 'too-large' ? { payload: known.message, ...fields } : fields };
  }
  if (code === 'UNPROCESSABLE_CONTENT' || status === 422) {
    const count = Object.keys(fields).length;
    return {
      kind: 'invalid',
      message:
        count > 0
          ? `The server did not accept ${count === 1 ? 'one of the options' : 'some of the options'}: ${Object.values(fields).join(' ')}`
          : said || 'The server did not accept the push.',
      fields,
    };
  }
  if (code === 'BAD_REQUEST' || status === 400) {
    return { kind: 'bad-request', message: `The server did not accept the request${said ? `: ${said}` : '.'}`, fields };
  }
  return {
    kind: 'server',
    message: `The server had a problem${status ? ` (error ${status})` : ''}. Try again later.`,
    fields,
  };
}
