import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ServiceError } from '../../service-error.js';
import { isStorableText } from '../storable-text.js';
import { StorageUnavailableError } from '../store.js';
import { CheckedOutClient } from './checked-out-client.js';

/** What the store's code runs statements on: the pool, or one transaction's connection. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** Runs `work` in a transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

/**
 * SQLSTATE classes and socket errors that mean "the database cannot be reached or cannot
 * write right now" (not "this statement is wrong"): 08 connection exception, 53 insufficient
 * resources (disk full, too many connections), 57P01–57P05 shutdown and crash recovery.
 */
export function isUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string') {
    if (/^(08|53|57P0)/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'ENETUNREACH'].includes(code)) return true;
  }
  const message = e instanceof Error ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|connection timeout|Client has encountered a connection error|Connection ended|Client was closed/i.test(message);
}

/** Text PostgreSQL cannot take as it is (see storable-text.ts): a client's input error, answered 400 on every adapter. */
function unstorableText(): ServiceError {
  return new ServiceError('bad_request', 'The request holds a NUL character (U+0000) or a lone UTF-16 surrogate, which no field accepts.');
}

/**
 * The last line behind the services' own checks: a statement's text parameters are checked
 * before they are bound, and PostgreSQL's refusals of a character (22021 invalid byte sequence,
 * 22P05 untranslatable character) are the same 400 should one get past, never a 500.
 */
function assertStorable(values: unknown[]): void {
  for (const v of values) {
    if (typeof v === 'string' ? !isStorableText(v) : Array.isArray(v) && v.some((x) => typeof x === 'string' && !isStorableText(x))) throw unstorableText();
  }
}

function translate(e: unknown): unknown {
  const code = (e as { code?: unknown })?.code;
  if (code === '22021' || code === '22P05') return unstorableText();
  if (e instanceof StorageUnavailableError || !isUnavailable(e)) return e;
  return new StorageUnavailableError(`the database is unreachable (${(e as { code?: string }).code ?? (e as Error).message})`, { cause: e, retryAfterSeconds: 2 });
}

const statementNames = new Map<string, string>();

/**
 * Every statement with parameters runs as a named prepared statement: each connection parses and
 * plans it once, then only binds values (the store's statements are a small fixed set).
 */
function prepared(text: string, values: unknown[] | undefined): pg.QueryConfig | string {
  if (!values?.length) return text;
  assertStorable(values);
  let name = statementNames.get(text);
  if (!name) {
    name = `sp_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** The pool, with connection failures turned into StorageUnavailableError (503 + Retry-After). */
export function unavailableAware(pool: pg.Pool): Queryable {
  return {
    async query(text, values) {
      try {
        return await pool.query(prepared(text, values));
      } catch (e) {
        throw translate(e);
      }
    },
    async transaction(work) {
      let out: CheckedOutClient;
      try {
        out = await CheckedOutClient.from(pool);
      } catch (e) {
        throw translate(e);
      }
      const { client } = out;
      const tx: Queryable = {
        async query(text, values) {
          try {
            return await client.query(prepared(text, values));
          } catch (e) {
            if (isUnavailable(e)) out.markLost(e);
            throw translate(e);
          }
        },
        transaction: (inner) => inner(tx),
      };
      try {
        await tx.query('BEGIN');
        const result = await work(tx);
        await tx.query('COMMIT');
        return result;
      } catch (e) {
        if (!out.lost) await client.query('ROLLBACK').catch((r) => out.markLost(r));
        throw translate(e);
      } finally {
        // A connection lost mid-transaction is discarded, not returned to the pool.
        out.release();
      }
    },
  };
}
