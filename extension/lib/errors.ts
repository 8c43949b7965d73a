import { HttpFailure } from './http-failure';
import { t, tn, type MessageKey } from './i18n';
import { isTlsError } from './net-errors';
import type { Problem } from './problem';

/**
 * Turns whatever a server call threw into words a person understands, plus field-level
 * messages for 422 answers so each can be shown next to the control it concerns.
 */

export type { Problem, ProblemKind } from './problem';

const fieldKeys: Record<string, MessageKey> = {
  payload: 'field_payload',
  kind: 'field_kind',
  expire_after_days: 'field_expire_after_days',
  expire_after_views: 'field_expire_after_views',
  expire_after_duration: 'field_expire_after_duration',
  passphrase: 'field_passphrase',
  retrieval_step: 'field_retrieval_step',
  deletable_by_viewer: 'field_deletable_by_viewer',
  name: 'field_name',
  note: 'field_note',
  page: 'field_page',
  url_token: 'field_url_token',
};

/** The label of a push field, as the form names it (an unknown field: its name in words). */
export function fieldLabel(field: string): string {
  const key = fieldKeys[field];
  return key ? t(key) : field.replace(/_/g, ' ');
}

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
    // The server's own words stay English (API messages do); the field is named in the UI language.
    const label = fieldLabel(field);
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
  seconds === undefined ? t('wait_minute') : seconds <= 1 ? t('wait_second') : seconds < 120 ? t('wait_seconds', seconds) : t('wait_minutes', Math.ceil(seconds / 60));

/** The words for an HTTP status, whoever answered (tRPC or something in front of it). */
function byStatus(status: number, said: string, signedIn: boolean, serverUrl: string, retryAfter?: number): Omit<Problem, 'fields'> | undefined {
  if (status === 401) {
    return {
      kind: 'unauthorized',
      message: signedIn ? t('unauthorized_signed_in') : t('unauthorized_anon'),
    };
  }
  if (status === 403) {
    return { kind: 'forbidden', message: said ? t('forbidden_said', said) : t('forbidden') };
  }
  if (status === 404) {
    return { kind: 'not-a-server', message: t('not_found_api', serverUrl) };
  }
  if (status === 413) return { kind: 'too-large', message: t('too_large') };
  if (status === 429) return { kind: 'rate-limited', message: t('rate_limited', waitFor(retryAfter)) };
  if (status === 503) return { kind: 'unavailable', message: said ? t('unavailable_said', said) : t('unavailable') };
  if (status >= 500) return { kind: 'server', message: t('server_failed', status) };
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
    return { kind: 'not-a-server', message: t('not_a_server_status', serverUrl, http.status), fields: {} };
  }

  if (!data) {
    const netError = netErrorOf(err);
    if (isTlsError(netError)) {
      return {
        kind: 'tls',
        message: t('tls', serverUrl, netError!.replace(/\.$/, '')),
        fields,
        netError,
      };
    }
    if (isNetworkFailure(err)) {
      return netError
        ? { kind: 'network', message: t('network_said', serverUrl, netError.replace(/\.$/, '')), fields, netError }
        : { kind: 'network', message: t('network', serverUrl), fields };
    }
    if (/transform|JSON|Unexpected token/i.test(said)) {
      return {
        kind: 'not-a-server',
        message: t('not_a_server', serverUrl),
        fields,
      };
    }
    return { kind: 'unknown', message: said ? t('unknown_said', said) : t('unknown'), fields };
  }

  const statusOf: Record<string, number> = { UNAUTHORIZED: 401, FORBIDDEN: 403, PAYLOAD_TOO_LARGE: 413, TOO_MANY_REQUESTS: 429, SERVICE_UNAVAILABLE: 503 };
  const mapped = code && statusOf[code] ? statusOf[code] : status;
  if (code === 'NOT_FOUND' || status === 404) {
    return { kind: 'not-found', message: t('push_gone'), fields };
  }
  if (mapped && mapped !== 422 && mapped !== 400) {
    const known = byStatus(mapped, said, signedIn, serverUrl);
    if (known) return { ...known, fields: known.kind === 'too-large' ? { payload: known.message, ...fields } : fields };
  }
  if (code === 'UNPROCESSABLE_CONTENT' || status === 422) {
    const count = Object.keys(fields).length;
    return {
      kind: 'invalid',
      message: count > 0 ? tn('invalid_options', count, Object.values(fields).join(' ')) : said || t('invalid_push'),
      fields,
    };
  }
  if (code === 'BAD_REQUEST' || status === 400) {
    return { kind: 'bad-request', message: said ? t('bad_request_said', said) : t('bad_request'), fields };
  }
  return {
    kind: 'server',
    message: status ? t('server_problem_status', status) : t('server_problem'),
    fields,
  };
}
