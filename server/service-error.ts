/**
 * A rule said no. Services throw these; each adapter (REST v2/v1, tRPC, pages) turns them into
 * its own format. `body` is the Password Pusher JSON body for the REST API.
 */
export type ServiceErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'conflict'
  | 'too_many_requests'
  | 'payload_too_large'
  | 'unavailable'
  | 'insufficient_storage'
  | 'too_early';

const statusOf: Record<ServiceErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  validation: 422,
  conflict: 409,
  too_many_requests: 429,
  payload_too_large: 413,
  unavailable: 503,
  insufficient_storage: 507,
  too_early: 425,
};

export class ServiceError extends Error {
  readonly status: number;
  readonly kind: ServiceErrorKind;
  /** For validation errors: field → messages (Password Pusher's 422 body). */
  readonly fieldErrors?: Record<string, string[]>;
  /** Seconds until a retry may succeed (429). */
  readonly retryAfter?: number;
  /** Fields a Password Pusher answer carries beside `error` (see wrongPassphrase). */
  private extraBody?: Record<string, string | boolean>;

  constructor(kind: ServiceErrorKind, message: string, fieldErrors?: Record<string, string[]>, retryAfter?: number) {
    // A refusal is an answer, not a bug: no stack trace (capturing one costs more than the
    // rest of a 401 or 404, which matters under floods of bad requests).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.kind = kind;
    this.status = statusOf[kind];
    this.fieldErrors = fieldErrors;
    this.retryAfter = retryAfter;
  }

  /** The JSON body Password Pusher clients expect. */
  get body(): Record<string, unknown> {
    return this.kind === 'validation' && this.fieldErrors ? this.fieldErrors : { error: this.message, ...this.extraBody };
  }

  /** A missing or wrong passphrase: 401 with Password Pusher's whole body, which says how to give one. */
  static wrongPassphrase() {
    const e = new ServiceError('unauthorized', 'That passphrase is incorrect.');
    e.extraBody = {
      message: "This push requires a passphrase. Please provide it using the 'passphrase' parameter (e.g. ?passphrase=mysecret)",
      status: 'unauthorized',
    };
    return e;
  }

  /** A push with a scheduled release, asked for before it opens: 425 with Retry-After and the time. */
  static tooEarly(notBefore: string, retryAfterSeconds: number) {
    const e = new ServiceError('too_early', `This push opens at ${notBefore}. Please try again then.`, undefined, retryAfterSeconds);
    e.extraBody = { not_before: notBefore };
    return e;
  }

  /** Linked secrets: a push that opens only after the one it follows was opened by this recipient (425, as before a release). */
  static opensAfterAnother(until: string | null, retryAfterSeconds: number | undefined) {
    const e = new ServiceError(
      'too_early',
      'This secret opens only after the link you were sent before it has been opened in this browser (or by this client: send its Secret-Push-Opened proof). Open that link first.',
      undefined,
      retryAfterSeconds,
    );
    e.extraBody = { follows: true, ...(until ? { follows_until: until } : {}) };
    return e;
  }

  static validation(fieldErrors: Record<string, string[]>) {
    const summary = Object.entries(fieldErrors).map(([f, m]) => `${f} ${m.join(', ')}`).join('; ');
    return new ServiceError('validation', summary, fieldErrors);
  }
}
