import { t } from './i18n';

/**
 * A failure in words a person understands (errors.ts writes them). The popup receives its
 * server errors already described by the background (relay.ts), so it carries only this.
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
  /**
   * The browser's own reason a connection failed (`net::ERR_CERT_AUTHORITY_INVALID`), known only
   * while the extension holds `webRequest` (net-errors.ts): without it, a failure to connect says
   * nothing more, and the popup offers to find out (components/ProblemNotice.tsx).
   */
  netError?: string;
}

/** An error that has been described already (thrown by a described `PushApi`). */
export class DescribedError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
    this.name = 'DescribedError';
  }
}

/** The problem of what a described `PushApi` threw; anything else is an unknown failure. */
export function problemOf(err: unknown): Problem {
  if (err instanceof DescribedError) return err.problem;
  const said = err instanceof Error ? err.message.trim() : '';
  return { kind: 'unknown', message: said ? t('unknown_said', said) : t('unknown'), fields: {} };
}
