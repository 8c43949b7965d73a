/**
 * Turns whatever a server call threw into words a person understands, plus field-level
 * messages for 422 answers so each can be shown next to the control it concerns.
 */

export type ProblemKind =
  | 'network'
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

  if (!data) {
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

  if (code === 'UNAUTHORIZED' || status === 401) {
    return {
      kind: 'unauthorized',
      message: signedIn
        ? 'The server did not accept your API token. Make a new one on the server and paste it in Settings.'
        : 'This needs an API token: make one on the server and paste it in Settings.',
      fields,
    };
  }
  if (code === 'FORBIDDEN' || status === 403) {
    return { kind: 'forbidden', message: said || 'That push belongs to someone else.', fields };
  }
  if (code === 'NOT_FOUND' || status === 404) {
    return { kind: 'not-found', message: 'That push no longer exists on the server.', fields };
  }
  if (code === 'TOO_MANY_REQUESTS' || status === 429) {
    return { kind: 'rate-limited', message: 'The server is receiving too many requests. Wait a minute and try again.', fields };
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
  if (code === 'PAYLOAD_TOO_LARGE' || status === 413) {
    const message = 'The secret is too large for this server.';
    return { kind: 'too-large', message, fields: { payload: message, ...fields } };
  }
  if (code === 'SERVICE_UNAVAILABLE' || status === 503) {
    return { kind: 'unavailable', message: said || 'The server is unavailable right now. Try again later.', fields };
  }
  return {
    kind: 'server',
    message: `The server had a problem${status ? ` (error ${status})` : ''}. Try again later.`,
    fields,
  };
}
