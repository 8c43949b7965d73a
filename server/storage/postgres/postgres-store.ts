import pg from 'pg';
import type { Logger } from '../../logger.js';
import {
  auditRecordSchema,
  storedApiTokenSchema,
  storedConnectCodeSchema,
  storedDeliverySchema,
  storedMailSchema,
  storedPushSchema,
  storedRequestSchema,
  storedSessionSchema,
  storedUserSchema,
  storedWebhookSchema,
  type AuditRecord,
  type DeliveryOutcome,
  type MailOutcome,
  type StoredMail,
  type StoredMultipartUpload,
  type StoredApiToken,
  type StoredConnectCode,
  type StoredDelivery,
  type StoredPush,
  type StoredRequest,
  type StoredSession,
  type StoredUser,
  type StoredWebhook,
  type WebhookEvent,
} from '../records.js';
import { auditList } from '../outbox.js';
import { adminLogEntrySchema, storedInviteSchema, type AdminLogEntry, type InstanceAuditEntry, type InstanceAuditFilter, type StoredInvite } from '../admin-records.js';
import { refuseAddressChange, StorageUnavailableError, StoreNotReady, type DueWork, type EndpointShare, type PushChange, type PushLink, type RequestChange, type Store } from '../store.js';
import { PostgresBlobStore } from './postgres-blob-store.js';
import { PostgresLimitCounters } from './postgres-limit-counters.js';
import { migrate } from './migrate.js';
import { isUnavailable, type Queryable, unavailableAware } from './unavailable.js';

export interface PostgresStoreOptions {
  url: string;
  poolSize: number;
  logger: Logger;
  /**
   * A server's start: wait for a database that cannot be reached yet instead of failing (a
   * login refused or a database that does not exist still fail at once).
   */
  waitForDatabase?: boolean;
}

/** While waiting for the database at start: how often to try, and to say so again. */
const WAIT_RETRY_MS = 1_000;
const WAIT_LOG_INTERVAL_MS = 30_000;

/** The rows' whole records, validated on the way out like the embedded store's file. */
const parse = <T>(schema: { parse(v: unknown): T }) => (row: { record: unknown }) => schema.parse(row.record);
const parsePush = parse(storedPushSchema);

/** Audit entries read per query by an instance-wide listing or export. */
const AUDIT_BATCH = 1000;

/** Optimistic writes of one push before taking its row lock instead (see updatePush). */
const OPTIMISTIC_ATTEMPTS = 3;

const DUE_CONDITION: Record<DueWork, string> = {
  expiry: 'expired_at IS NULL AND expires_at <= $1',
  'file-purge': 'expired_at IS NOT NULL AND files_purge_at IS NOT NULL AND files_purge_at <= $1',
};

/**
 * The Store on PostgreSQL, for several instances behind a load balancer. Every rule stays in
 * the services; what this adds is atomicity across processes: a push's read-modify-write runs in
 * one transaction holding the row lock (`SELECT … FOR UPDATE`), background work claims rows with
 * `FOR UPDATE SKIP LOCKED`, counters are single statements or advisory-locked transactions.
 * Connection failures surface as StorageUnavailableError (503, Retry-After), and the pool
 * reconnects by itself when the database is back.
 */
export class PostgresStore implements Store {
  readonly blobs: PostgresBlobStore;
  readonly counters: PostgresLimitCounters;
  private readonly db: Queryable;
  /** The row version (`xmin`) each record handed out by getPush was read at (see updatePush). */
  private readonly versions = new WeakMap<StoredPush, string>();

  private constructor(
    private readonly pool: pg.Pool,
    /** The schema version this server migrated to (or found) at start. */
    private readonly schemaVersion: number,
  ) {
    this.db = unavailableAware(pool);
    this.blobs = new PostgresBlobStore(this.db);
    this.counters = new PostgresLimitCounters(this.db);
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize,
      // A request must not wait for ever on a database that is down: it gets a 503 instead.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      application_name: 'secret-push',
    });
    // An idle connection that the server drops (a restart) is reported here; without a
    // listener it would crash the process. The pool replaces it on the next checkout.
    pool.on('error', (e) => options.logger.error('PostgreSQL connection lost (the pool reconnects on the next request)', e));
    let schemaVersion: number | undefined;
    let waitingSince: number | undefined;
    let lastWaitLog = 0;
    while (schemaVersion === undefined) {
      try {
        const { applied, version } = await migrate(pool);
        if (applied.length) options.logger.info(`PostgreSQL schema migrated to version ${version} (${applied.join(', ')})`);
        schemaVersion = version;
      } catch (e) {
        const reason = startupError(e, options.url);
        if (!(options.waitForDatabase && isUnavailable(e))) {
          await pool.end();
          throw reason;
        }
        // A database not up yet (all instances and the database started together, or the
        // database restarting) is waited for, not a reason to exit: a supervisor would only
        // restart the instance into the same wait.
        const now = Date.now();
        if (now - lastWaitLog >= WAIT_LOG_INTERVAL_MS) {
          options.logger.error(`${(reason as Error).message} Waiting for it (trying again every ${WAIT_RETRY_MS / 1000} s).`);
          lastWaitLog = now;
        }
        waitingSince ??= now;
        await new Promise((r) => setTimeout(r, WAIT_RETRY_MS));
      }
    }
    if (waitingSince !== undefined) options.logger.info(`PostgreSQL is reachable after ${Math.round((Date.now() - waitingSince) / 1000)} s of waiting: starting`);
    return new PostgresStore(pool, schemaVersion);
  }

  async insertPush(push: StoredPush, creation: AuditRecord, events?: WebhookEvent[], mails?: StoredMail[], link?: PushLink): Promise<void> {
    const insert = (db: Queryable) =>
      // One statement (atomic by itself): the push and its creation entry, in one round trip.
      db.query(
        `WITH p AS (
           INSERT INTO pushes (token, owner_id, created_at, expires_at, expired_at, files_purge_at, record, batch_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING token
         )
         INSERT INTO audit (token, entry) SELECT token, $9 FROM p`,
        [...insertedPushColumns(push), creation],
      );
    if (!events?.length && !mails?.length && !link) {
      await insert(this.db);
      return;
    }
    await this.db.transaction(async (tx) => {
      await insert(tx);
      if (link) {
        // In the insert's transaction: the link is on both trails or on neither. The followed
        // push's row is key-share locked (as appendAudit does) so a retention delete waits.
        await tx.query('INSERT INTO audit (token, entry) VALUES ($1, $2)', [push.token, link.entry]);
        await tx.query('INSERT INTO audit (token, entry) SELECT token, $2 FROM pushes WHERE token = $1 FOR KEY SHARE', [link.follows, link.entry]);
      }
      if (events?.length) await writeOutbox(tx, events);
      if (mails?.length) await insertMailRows(tx, mails);
    });
  }

  async getPush(token: string): Promise<StoredPush | undefined> {
    const { rows } = await this.db.query('SELECT record, xmin::text AS version FROM pushes WHERE token = $1', [token]);
    if (!rows[0]) return undefined;
    const push = parsePush(rows[0]);
    this.versions.set(push, rows[0].version as string);
    return push;
  }

  /**
   * Optimistic first: the record is read with its row version (`xmin`, which every update
   * changes) and written back only if that version is still current, the audit entry in the
   * same statement; two statements and no transaction, where a locking transaction takes five
   * round trips (BEGIN, SELECT … FOR UPDATE, UPDATE, COMMIT) and holds the row meanwhile. A
   * write that finds the row changed runs `change` again on the new record; a push contended
   * that often falls back to the row lock, so every caller gets through.
   */
  async updatePush<T>(token: string, change: (push: StoredPush) => PushChange<T>, seen?: StoredPush): Promise<T | undefined> {
    // The record the caller has just read (with its version) saves the first read.
    let known = seen && seen.token === token ? this.versions.get(seen) : undefined;
    for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      let current: StoredPush;
      let version: string;
      if (known && seen) {
        [current, version, known] = [seen, known, undefined];
      } else {
        const { rows } = await this.db.query('SELECT record, xmin::text AS version FROM pushes WHERE token = $1', [token]);
        if (!rows[0]) return undefined;
        [current, version] = [parsePush(rows[0]), rows[0].version as string];
      }
      const outcome = change(current);
      if (await this.writeIfUnchanged(token, version, outcome)) return outcome.result;
    }
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query('SELECT record FROM pushes WHERE token = $1 FOR UPDATE', [token]);
      if (!rows[0]) return undefined;
      return this.applyChange(tx, parsePush(rows[0]), change);
    });
  }

  /** Writes a change unless the row has moved on from `version`; false when it has (or is gone). */
  private async writeIfUnchanged(token: string, version: string, { next, audit: audits, events, mails }: PushChange<unknown>): Promise<boolean> {
    const entries = auditList(audits);
    if (entries.length > 1 || events?.length || mails?.length) return this.writeAllIfUnchanged(token, version, next, entries, events ?? [], mails ?? []);
    const audit = entries[0];
    if (next) {
      const { rowCount } = await this.db.query(
        `WITH p AS (
           UPDATE pushes SET owner_id = $2, created_at = $3, expires_at = $4, expired_at = $5, files_purge_at = $6, record = $7
           WHERE token = $1 AND xmin = $9::xid RETURNING token
         ), a AS (
           INSERT INTO audit (token, entry) SELECT token, $8 FROM p WHERE $8::json IS NOT NULL
         )
         SELECT 1 FROM p`,
        [...pushColumns(next), audit ?? null, version],
      );
      return rowCount === 1;
    }
    if (audit) {
      // FOR KEY SHARE: a retention delete of this push waits for the entry, then deletes it too.
      const { rowCount } = await this.db.query('INSERT INTO audit (token, entry) SELECT token, $2 FROM pushes WHERE token = $1 AND xmin = $3::xid FOR KEY SHARE', [
        token,
        audit,
        version,
      ]);
      return rowCount === 1;
    }
    // Nothing to write: the answer stands for the record as read.
    return true;
  }

  /**
   * The general optimistic write: the record (if changed), every audit entry in order and the
   * outbox rows of the events, in one statement that does nothing unless the row is unchanged.
   */
  private async writeAllIfUnchanged(token: string, version: string, next: StoredPush | undefined, entries: AuditRecord[], events: WebhookEvent[], mails: StoredMail[] = []): Promise<boolean> {
    const rest = (a: number, e: number) => `,
       a AS (INSERT INTO audit (token, entry) SELECT p.token, t.e FROM p CROSS JOIN unnest($${a}::json[]) WITH ORDINALITY AS t(e, n) ORDER BY t.n),
       o AS (${outboxInsert(`$${e}`, 'CROSS JOIN p')}),
       ml AS (${mailInsert(`$${e + 1}`, 'CROSS JOIN p')})
       SELECT 1 FROM p`;
    const list = [entries.map((a) => JSON.stringify(a)), JSON.stringify(events), JSON.stringify(mails)];
    const { rowCount } = next
      ? await this.db.query(
          `WITH p AS (
             UPDATE pushes SET owner_id = $2, created_at = $3, expires_at = $4, expired_at = $5, files_purge_at = $6, record = $7
             WHERE token = $1 AND xmin = $8::xid RETURNING token
           )${rest(9, 10)}`,
          [...pushColumns(next), version, ...list],
        )
      : await this.db.query(`WITH p AS (SELECT token FROM pushes WHERE token = $1 AND xmin = $2::xid FOR KEY SHARE)${rest(3, 4)}`, [token, version, ...list]);
    return rowCount === 1;
  }

  private async applyChange<T>(tx: Queryable, current: StoredPush, change: (push: StoredPush) => PushChange<T>): Promise<T> {
    const { next, audit: audits, events, mails, result } = change(current);
    const [audit, ...moreAudit] = auditList(audits);
    if (next && audit) {
      await tx.query(
        `WITH p AS (
           UPDATE pushes SET owner_id = $2, created_at = $3, expires_at = $4, expired_at = $5, files_purge_at = $6, record = $7
           WHERE token = $1 RETURNING token
         )
         INSERT INTO audit (token, entry) SELECT token, $8 FROM p`,
        [...pushColumns(next), audit],
      );
    } else if (next) {
      await tx.query(
        `UPDATE pushes SET owner_id = $2, created_at = $3, expires_at = $4, expired_at = $5, files_purge_at = $6, record = $7
         WHERE token = $1`,
        pushColumns(next),
      );
    } else if (audit) {
      await tx.query('INSERT INTO audit (token, entry) VALUES ($1, $2)', [current.token, audit]);
    }
    if (moreAudit.length) {
      await tx.query('INSERT INTO audit (token, entry) SELECT $1, e FROM unnest($2::json[]) WITH ORDINALITY AS t(e, n) ORDER BY n', [
        current.token,
        moreAudit.map((a) => JSON.stringify(a)),
      ]);
    }
    if (events?.length) await writeOutbox(tx, events);
    if (mails?.length) await insertMailRows(tx, mails);
    return result;
  }

  async insertRequest(request: StoredRequest): Promise<void> {
    await this.db.query('INSERT INTO secret_requests (id, owner_id, record) VALUES ($1, $2, $3)', [request.id, request.ownerId, request]);
  }

  async getRequest(id: string): Promise<StoredRequest | undefined> {
    const { rows } = await this.db.query('SELECT record FROM secret_requests WHERE id = $1', [id]);
    return rows[0] ? parse(storedRequestSchema)(rows[0]) : undefined;
  }

  async listRequestsByOwner(ownerId: string, offset: number, limit: number): Promise<StoredRequest[]> {
    const { rows } = await this.db.query('SELECT record FROM secret_requests WHERE owner_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3', [ownerId, offset, limit]);
    return rows.map(parse(storedRequestSchema));
  }

  async deleteRequestsBefore(before: Date, limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM secret_requests WHERE id IN (
         SELECT id FROM secret_requests
         WHERE coalesce(record->>'answeredAt', record->>'closedAt', record->>'expiresAt') < $1
         LIMIT $2 FOR UPDATE SKIP LOCKED
       )`,
      [before.toISOString(), limit],
    );
    return rowCount ?? 0;
  }

  updateRequest<T>(id: string, change: (request: StoredRequest) => RequestChange<T>): Promise<T | undefined> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query('SELECT record FROM secret_requests WHERE id = $1 FOR UPDATE', [id]);
      if (!rows[0]) return undefined;
      const { next, push, events, mails, result } = change(parse(storedRequestSchema)(rows[0]));
      if (mails?.length) await insertMailRows(tx, mails);
      if (push) {
        await tx.query(
          `WITH p AS (
             INSERT INTO pushes (token, owner_id, created_at, expires_at, expired_at, files_purge_at, record, batch_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING token
           )
           INSERT INTO audit (token, entry) SELECT token, $9 FROM p`,
          [...insertedPushColumns(push.push), push.creation],
        );
      }
      if (next) await tx.query('UPDATE secret_requests SET record = $2 WHERE id = $1', [id, next]);
      if (events?.length) await writeOutbox(tx, events);
      return result;
    });
  }

  insertWebhook(webhook: StoredWebhook, maxPerAccount: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // One account's webhooks are added one at a time, across instances: the count below (a
      // statement of its own, so a fresh snapshot) then sees every one added before.
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`webhooks:${webhook.userId}`]);
      const { rows } = await tx.query('SELECT count(*)::int AS n FROM webhooks WHERE user_id = $1', [webhook.userId]);
      if ((rows[0].n as number) >= maxPerAccount) return false;
      await tx.query('INSERT INTO webhooks (id, user_id, created_at, events, record) VALUES ($1, $2, $3, $4, $5)', [
        webhook.id,
        webhook.userId,
        webhook.createdAt,
        webhook.events,
        webhook,
      ]);
      return true;
    });
  }

  async listWebhooks(userId: string): Promise<StoredWebhook[]> {
    const { rows } = await this.db.query('SELECT record FROM webhooks WHERE user_id = $1 ORDER BY created_at, id', [userId]);
    return rows.map(parse(storedWebhookSchema));
  }

  async deleteWebhook(userId: string, id: string): Promise<boolean> {
    // Its deliveries go with it (ON DELETE CASCADE).
    const { rowCount } = await this.db.query('DELETE FROM webhooks WHERE id = $1 AND user_id = $2', [id, userId]);
    return Boolean(rowCount);
  }

  async claimDeliveries(now: Date, leaseUntil: Date, limit: number, endpoints?: EndpointShare): Promise<StoredDelivery[]> {
    // The share is ranked in a subquery (FOR UPDATE allows no window function at its level);
    // the conditions are repeated where the rows are locked, since only there does PostgreSQL
    // check them again on a row another instance leased meanwhile.
    const due = `state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)`;
    const shared = endpoints
      ? `AND id IN (
           SELECT id FROM (
             SELECT id, row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, seq) AS n
             FROM webhook_deliveries WHERE ${due} AND webhook_id <> ALL($4::text[])
           ) ranked WHERE n <= $5
         )`
      : '';
    const { rows } = await this.db.query(
      `UPDATE webhook_deliveries SET lease_until = $2 WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE ${due} ${shared}
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED
       ) RETURNING ${DELIVERY_COLUMNS}`,
      [now.toISOString(), leaseUntil.toISOString(), limit, ...(endpoints ? [endpoints.skip, endpoints.perWebhook] : [])],
    );
    return rows.map(deliveryFromRow);
  }

  async finishDelivery(id: string, o: DeliveryOutcome): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET attempts = $2, next_attempt_at = $3, state = $4, last_status = $5, last_error = $6,
         last_attempt_at = $7, lease_until = NULL WHERE id = $1`,
      [id, o.attempts, o.nextAttemptAt, o.state, o.lastStatus, o.lastError, o.lastAttemptAt],
    );
  }

  async deleteFinishedDeliveries(before: Date, limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND last_attempt_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
       )`,
      [before.toISOString(), limit],
    );
    return rowCount ?? 0;
  }

  async listDeliveries(userId: string, limit: number): Promise<StoredDelivery[]> {
    const { rows } = await this.db.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`, [userId, limit]);
    return rows.map(deliveryFromRow);
  }

  async insertMails(mails: StoredMail[]): Promise<void> {
    if (!mails.length) return;
    await insertMailRows(this.db, mails);
  }

  async claimMails(now: Date, leaseUntil: Date, limit: number): Promise<StoredMail[]> {
    const { rows } = await this.db.query(
      `UPDATE mail_outbox SET lease_until = $2 WHERE id IN (
         SELECT id FROM mail_outbox
         WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
         ORDER BY next_attempt_at, seq LIMIT $3 FOR UPDATE SKIP LOCKED
       ) RETURNING ${MAIL_COLUMNS}`,
      [now.toISOString(), leaseUntil.toISOString(), limit],
    );
    return rows.map(mailFromRow);
  }

  async finishMail(id: string, o: MailOutcome): Promise<void> {
    await this.db.query(
      `UPDATE mail_outbox SET attempts = $2, next_attempt_at = $3, state = $4, last_error = $5, last_attempt_at = $6, lease_until = NULL WHERE id = $1`,
      [id, o.attempts, o.nextAttemptAt, o.state, o.lastError, o.lastAttemptAt],
    );
  }

  async listGivenUpMails(offset: number, limit: number): Promise<StoredMail[]> {
    const { rows } = await this.db.query(`SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE state = 'failed' ORDER BY seq DESC OFFSET $1 LIMIT $2`, [offset, limit]);
    return rows.map(mailFromRow);
  }

  async listMails(userId: string, limit: number): Promise<StoredMail[]> {
    const { rows } = await this.db.query(`SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`, [userId, limit]);
    return rows.map(mailFromRow);
  }

  async appendAudit(token: string, entry: AuditRecord): Promise<void> {
    // A push deleted by retention meanwhile has no trail to append to: nothing to record. The
    // row lock makes a retention delete running now wait for this entry and delete it too.
    await this.db.query('INSERT INTO audit (token, entry) SELECT token, $2 FROM pushes WHERE token = $1 FOR KEY SHARE', [token, entry]);
  }

  async listAudit(token: string, offset: number, limit: number): Promise<AuditRecord[]> {
    const { rows } = await this.db.query('SELECT entry FROM audit WHERE token = $1 ORDER BY id OFFSET $2 LIMIT $3', [token, offset, limit]);
    return rows.map((r) => auditRecordSchema.parse(r.entry));
  }

  async listPushesOfBatch(ownerId: string, batchId: string, limit: number): Promise<StoredPush[]> {
    // pushes_batch_id (migration 0021) serves this.
    const { rows } = await this.db.query(
      `SELECT record FROM pushes WHERE owner_id = $1 AND batch_id = $2 ORDER BY seq LIMIT $3`,
      [ownerId, batchId, limit],
    );
    return rows.map((r) => parsePush(r));
  }

  async listPushesByOwner(ownerId: string, expired: boolean, offset: number, limit: number): Promise<StoredPush[]> {
    const { rows } = await this.db.query(
      `SELECT record FROM pushes WHERE owner_id = $1 AND (expired_at IS NOT NULL) = $2
       ORDER BY seq DESC OFFSET $3 LIMIT $4`,
      [ownerId, expired, offset, limit],
    );
    return rows.map(parsePush);
  }

  updateDuePushes<T>(due: DueWork, now: Date, limit: number, change: (push: StoredPush) => PushChange<T>): Promise<T[]> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `SELECT record FROM pushes WHERE ${DUE_CONDITION[due]} ORDER BY token LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now.toISOString(), limit],
      );
      const results: T[] = [];
      for (const row of rows) results.push(await this.applyChange(tx, parsePush(row), change));
      return results;
    });
  }

  async deleteExpiredBefore(expiredBefore: Date, limit: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `DELETE FROM pushes WHERE token IN (
           SELECT token FROM pushes WHERE expired_at < $1 ORDER BY expired_at LIMIT $2 FOR UPDATE SKIP LOCKED
         ) RETURNING token`,
        [expiredBefore.toISOString(), limit],
      );
      const tokens = rows.map((r) => r.token as string);
      if (tokens.length) {
        // Each trail goes with its push (the audit table has no foreign key: see migration 0006).
        await tx.query('DELETE FROM audit WHERE token = ANY($1)', [tokens]);
        await tx.query('DELETE FROM blobs WHERE push_token = ANY($1)', [tokens]);
      }
      return tokens.length;
    });
  }

  async renamePushes(rename: (push: StoredPush) => StoredPush | undefined): Promise<number> {
    let moved = 0;
    for (let after = ''; ; ) {
      const { rows } = await this.db.query('SELECT token, record FROM pushes WHERE token > $1 ORDER BY token LIMIT 500', [after]);
      if (!rows.length) return moved;
      after = rows.at(-1)!.token as string;
      for (const row of rows) {
        const next = rename(parsePush(row));
        if (!next || next.token === row.token) continue;
        // The audit trail and the blobs follow the key (the blobs' chunks follow their blob, ON
        // UPDATE CASCADE); one transaction per push.
        moved += await this.db.transaction(async (tx) => {
          const { rowCount } = await tx.query('UPDATE pushes SET token = $2, record = $3 WHERE token = $1', [row.token, next.token, next]);
          if (!rowCount) return 0;
          await tx.query('UPDATE audit SET token = $2 WHERE token = $1', [row.token, next.token]);
          await tx.query('UPDATE blobs SET push_token = $2 WHERE push_token = $1', [row.token, next.token]);
          return 1;
        });
      }
    }
  }

  async storedBytes(): Promise<number> {
    const { rows } = await this.db.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'`,
    );
    return Number(rows[0].bytes);
  }

  /**
   * How many records of each kind the database holds (settings and limit counters aside): an
   * instance that only started on it leaves them all at 0.
   */
  async storedRecords(): Promise<Record<'pushes' | 'accounts' | 'apiTokens' | 'sessions' | 'files' | 'webhooks' | 'secretRequests', number>> {
    const { rows } = await this.db.query(
      `SELECT (SELECT count(*) FROM pushes) AS pushes, (SELECT count(*) FROM users) AS accounts,
              (SELECT count(*) FROM api_tokens) AS api_tokens, (SELECT count(*) FROM sessions) AS sessions,
              (SELECT count(*) FROM blobs) AS files, (SELECT count(*) FROM webhooks) AS webhooks,
              (SELECT count(*) FROM secret_requests) AS secret_requests`,
    );
    const r = rows[0];
    return {
      pushes: Number(r.pushes),
      accounts: Number(r.accounts),
      apiTokens: Number(r.api_tokens),
      sessions: Number(r.sessions),
      files: Number(r.files),
      webhooks: Number(r.webhooks),
      secretRequests: Number(r.secret_requests),
    };
  }

  async countPushes() {
    const { rows } = await this.db.query('SELECT count(*) FILTER (WHERE expired_at IS NULL) AS active, count(*) AS total FROM pushes');
    return { active: Number(rows[0].active), total: Number(rows[0].total) };
  }

  async insertUser(user: StoredUser, mails?: StoredMail[]): Promise<void> {
    const insert = (db: Queryable) => db.query('INSERT INTO users (id, email, record) VALUES ($1, $2, $3)', [user.id, user.email, user]);
    if (!mails?.length) {
      await insert(this.db);
      return;
    }
    await this.db.transaction(async (tx) => {
      await insert(tx);
      await insertMailRows(tx, mails);
    });
  }

  async updateUser(user: StoredUser, mails?: StoredMail[]): Promise<void> {
    const update = async (db: Queryable) => {
      const { rowCount } = await db.query('UPDATE users SET email = $2, record = $3 WHERE id = $1', [user.id, user.email, user]);
      if (!rowCount) throw new Error(`no user ${user.id}`);
    };
    if (!mails?.length) return update(this.db);
    await this.db.transaction(async (tx) => {
      await update(tx);
      await insertMailRows(tx, mails);
    });
  }

  changeUser<T>(id: string, change: (user: StoredUser) => { next?: StoredUser; result: T }): Promise<T | undefined> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query('SELECT record FROM users WHERE id = $1 FOR UPDATE', [id]);
      if (!rows[0]) return undefined;
      const current = parse(storedUserSchema)(rows[0]);
      const { next, result } = change(structuredClone(current));
      if (next) refuseAddressChange(current, next);
      if (next) await tx.query('UPDATE users SET record = $2 WHERE id = $1', [id, { ...next, id }]);
      return result;
    });
  }

  async getUser(id: string) {
    const { rows } = await this.db.query('SELECT record FROM users WHERE id = $1', [id]);
    return rows[0] ? parse(storedUserSchema)(rows[0]) : undefined;
  }

  async getUserByEmail(email: string) {
    const { rows } = await this.db.query('SELECT record FROM users WHERE email = $1', [email]);
    return rows[0] ? parse(storedUserSchema)(rows[0]) : undefined;
  }

  async listUsers(query: string, offset: number, limit: number): Promise<StoredUser[]> {
    const pattern = '%' + query.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    const { rows } = await this.db.query('SELECT record FROM users WHERE email LIKE $1 ORDER BY email OFFSET $2 LIMIT $3', [pattern, offset, limit]);
    return rows.map(parse(storedUserSchema));
  }

  async deleteUser(id: string): Promise<boolean> {
    // Tokens, sessions, webhooks (with their deliveries) and requests go with it (ON DELETE CASCADE).
    const { rowCount } = await this.db.query('DELETE FROM users WHERE id = $1', [id]);
    return Boolean(rowCount);
  }

  async listAllPushes(offset: number, limit: number): Promise<StoredPush[]> {
    const { rows } = await this.db.query('SELECT record FROM pushes ORDER BY seq DESC OFFSET $1 LIMIT $2', [offset, limit]);
    return rows.map(parsePush);
  }

  /** Keyset pages over the audit table's id: each batch is one short query, whatever the total. */
  async *streamInstanceAudit(filter: InstanceAuditFilter): AsyncIterable<InstanceAuditEntry> {
    const conditions: string[] = ['a.id > $1'];
    const params: unknown[] = [0];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.from !== undefined) add("(a.entry->>'at') >= ?", filter.from);
    if (filter.to !== undefined) add("(a.entry->>'at') < ?", filter.to);
    if (filter.owner !== undefined) add('p.owner_id = ?', filter.owner);
    if (filter.push !== undefined) add('a.token = ?', filter.push);
    if (filter.kind !== undefined) add("(a.entry->>'kind') = ?", filter.kind);
    if (filter.ip !== undefined) add("(a.entry->>'ip') = ?", filter.ip);
    const sql = `SELECT a.id, a.token, p.owner_id, a.entry FROM audit a LEFT JOIN pushes p ON p.token = a.token
                 WHERE ${conditions.join(' AND ')} ORDER BY a.id LIMIT ${AUDIT_BATCH}`;
    for (;;) {
      const { rows } = await this.db.query(sql, params);
      for (const r of rows) {
        const e = auditRecordSchema.parse(r.entry);
        yield { push: r.token, owner: r.owner_id ?? null, kind: e.kind, ip: e.ip, userAgent: e.userAgent, at: e.at };
      }
      if (rows.length < AUDIT_BATCH) return;
      params[0] = rows[rows.length - 1].id;
    }
  }

  async appendAdminLog(entry: AdminLogEntry): Promise<void> {
    await this.db.query('INSERT INTO admin_log (entry) VALUES ($1)', [entry]);
  }

  async listAdminLog(offset: number, limit: number): Promise<AdminLogEntry[]> {
    const { rows } = await this.db.query('SELECT entry FROM admin_log ORDER BY seq DESC OFFSET $1 LIMIT $2', [offset, limit]);
    return rows.map((r) => adminLogEntrySchema.parse(r.entry));
  }

  async insertInvite(invite: StoredInvite): Promise<void> {
    await this.db.query('INSERT INTO invites (id, created_at, expires_at, used_at, record) VALUES ($1, $2, $3, $4, $5)', [
      invite.id,
      invite.createdAt,
      invite.expiresAt,
      invite.usedAt,
      invite,
    ]);
  }

  async useInvite(id: string, now: Date, email: string): Promise<StoredInvite | undefined> {
    const { rows } = await this.db.query(
      'UPDATE invites SET used_at = $2, record = record::jsonb || jsonb_build_object(\'usedAt\', $3::text) WHERE id = $1 AND used_at IS NULL AND expires_at > $2 AND coalesce(record->>\'email\', $4) = $4 RETURNING record',
      [id, now, now.toISOString(), email],
    );
    return rows[0] ? { ...parse(storedInviteSchema)(rows[0]), usedAt: now.toISOString() } : undefined;
  }

  async listInvites(limit: number, offset = 0): Promise<StoredInvite[]> {
    const { rows } = await this.db.query('SELECT record FROM invites ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $1', [limit, offset]);
    return rows.map(parse(storedInviteSchema));
  }

  async revokeInvite(id: string, now: Date): Promise<StoredInvite | undefined> {
    // One statement: an instance using the invite at the same moment either finds it revoked or
    // used it first (then this changes nothing).
    const { rows } = await this.db.query(
      "UPDATE invites SET expires_at = $2, record = record::jsonb || jsonb_build_object('revokedAt', $3::text, 'expiresAt', $3::text) WHERE id = $1 AND used_at IS NULL AND expires_at > $2 RETURNING record",
      [id, now, now.toISOString()],
    );
    return rows[0] ? parse(storedInviteSchema)(rows[0]) : undefined;
  }

  async insertApiToken(token: StoredApiToken): Promise<void> {
    await this.db.query('INSERT INTO api_tokens (id, user_id, hash, created_at, record) VALUES ($1, $2, $3, $4, $5)', [
      token.id,
      token.userId,
      token.hash,
      token.createdAt,
      token,
    ]);
  }

  async getApiTokenByHash(hash: string) {
    const { rows } = await this.db.query('SELECT record FROM api_tokens WHERE hash = $1', [hash]);
    return rows[0] ? parse(storedApiTokenSchema)(rows[0]) : undefined;
  }

  async listApiTokens(userId: string) {
    const { rows } = await this.db.query('SELECT record FROM api_tokens WHERE user_id = $1 ORDER BY created_at, id', [userId]);
    return rows.map(parse(storedApiTokenSchema));
  }

  async deleteApiToken(id: string): Promise<void> {
    await this.db.query('DELETE FROM api_tokens WHERE id = $1', [id]);
  }

  async insertConnectCode(code: StoredConnectCode): Promise<void> {
    await this.db.query('INSERT INTO extension_connect_codes (hash, user_id, expires_at, record) VALUES ($1, $2, $3, $4)', [code.hash, code.userId, code.expiresAt, code]);
  }

  async redeemConnectCode(hash: string, usedAt: string, tokenId: string): Promise<{ first: boolean; code: StoredConnectCode } | undefined> {
    // A concurrent exchange holding the row makes this one wait, then re-check `used_at IS NULL`
    // on the row it left: it matches nothing, and reads the code as that exchange marked it.
    const won = await this.db.query(
      'UPDATE extension_connect_codes SET used_at = $2, token_id = $3 WHERE hash = $1 AND used_at IS NULL RETURNING record',
      [hash, usedAt, tokenId],
    );
    if (won.rows[0]) return { first: true, code: { ...parse(storedConnectCodeSchema)(won.rows[0]), usedAt, tokenId } };
    const { rows } = await this.db.query('SELECT record, used_at, token_id FROM extension_connect_codes WHERE hash = $1', [hash]);
    if (!rows[0]) return undefined;
    const code = parse(storedConnectCodeSchema)(rows[0]);
    return { first: false, code: { ...code, usedAt: (rows[0].used_at as Date).toISOString(), tokenId: rows[0].token_id as string } };
  }

  async deleteExpiredConnectCodes(before: Date, limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      'DELETE FROM extension_connect_codes WHERE hash IN (SELECT hash FROM extension_connect_codes WHERE expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)',
      [before.toISOString(), limit],
    );
    return rowCount ?? 0;
  }

  async recordMultipartUpload(upload: StoredMultipartUpload): Promise<void> {
    await this.db.query('INSERT INTO multipart_uploads (upload_id, object_key, started_at) VALUES ($1, $2, $3) ON CONFLICT (upload_id) DO NOTHING', [
      upload.uploadId,
      upload.key,
      upload.startedAt,
    ]);
  }

  async forgetMultipartUpload(uploadId: string): Promise<void> {
    await this.db.query('DELETE FROM multipart_uploads WHERE upload_id = $1', [uploadId]);
  }

  async listMultipartUploads(before: Date, limit: number): Promise<StoredMultipartUpload[]> {
    const { rows } = await this.db.query('SELECT upload_id, object_key, started_at FROM multipart_uploads WHERE started_at < $1 ORDER BY started_at LIMIT $2', [
      before.toISOString(),
      limit,
    ]);
    return rows.map((r) => ({ uploadId: r.upload_id as string, key: r.object_key as string, startedAt: (r.started_at as Date).toISOString() }));
  }

  async insertSession(session: StoredSession): Promise<void> {
    await this.db.query('INSERT INTO sessions (id, user_id, expires_at, record) VALUES ($1, $2, $3, $4)', [
      session.id,
      session.userId,
      session.expiresAt,
      session,
    ]);
  }

  async getSession(id: string) {
    const { rows } = await this.db.query('SELECT record FROM sessions WHERE id = $1', [id]);
    return rows[0] ? parse(storedSessionSchema)(rows[0]) : undefined;
  }

  async deleteSessionsOfUser(userId: string, exceptId?: string): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, exceptId ?? null]);
    return rowCount ?? 0;
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE id = $1', [id]);
  }

  async deleteExpiredSessions(now: Date, limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      'DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)',
      [now.toISOString(), limit],
    );
    return rowCount ?? 0;
  }

  async settingOrInit(name: string, value: string): Promise<string> {
    await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
    // Whoever inserted first (this instance or one starting beside it) set the value.
    const { rows } = await this.db.query('SELECT value FROM settings WHERE name = $1', [name]);
    return rows[0].value as string;
  }

  async putSetting(name: string, value: string): Promise<void> {
    await this.db.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [name, value]);
  }

  /**
   * Moving another store in (`npm run store:migrate`): each record is inserted unless it is
   * already there, a push together with its whole audit trail in one transaction, so a copy cut
   * short and run again neither duplicates nor half-copies anything. True when inserted.
   */
  importPush(push: StoredPush, trail: AuditRecord[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `INSERT INTO pushes (token, owner_id, created_at, expires_at, expired_at, files_purge_at, record, batch_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (token) DO NOTHING`,
        insertedPushColumns(push),
      );
      if (!rowCount) return false;
      if (trail.length) await tx.query('INSERT INTO audit (token, entry) SELECT $1, e FROM unnest($2::json[]) WITH ORDINALITY AS t(e, n) ORDER BY n', [push.token, trail.map((a) => JSON.stringify(a))]);
      return true;
    });
  }

  /** For store-migrate: an admin-log entry, unless one with its id is there already (a second run). */
  async importAdminLogEntry(entry: AdminLogEntry): Promise<boolean> {
    const { rowCount } = await this.db.query("INSERT INTO admin_log (entry) SELECT $1::json WHERE NOT EXISTS (SELECT 1 FROM admin_log WHERE entry->>'id' = $2)", [entry, entry.id]);
    return Boolean(rowCount);
  }

  async importInvite(invite: StoredInvite): Promise<boolean> {
    const { rowCount } = await this.db.query('INSERT INTO invites (id, created_at, expires_at, used_at, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
      invite.id,
      invite.createdAt,
      invite.expiresAt,
      invite.usedAt,
      invite,
    ]);
    return Boolean(rowCount);
  }

  async importUser(user: StoredUser): Promise<boolean> {
    const { rowCount } = await this.db.query('INSERT INTO users (id, email, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [user.id, user.email, user]);
    return Boolean(rowCount);
  }

  async importApiToken(token: StoredApiToken): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'INSERT INTO api_tokens (id, user_id, hash, created_at, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [token.id, token.userId, token.hash, token.createdAt, token],
    );
    return Boolean(rowCount);
  }

  async importSession(session: StoredSession): Promise<boolean> {
    const { rowCount } = await this.db.query('INSERT INTO sessions (id, user_id, expires_at, record) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      session.id,
      session.userId,
      session.expiresAt,
      session,
    ]);
    return Boolean(rowCount);
  }

  /** Moving webhooks, their outbox and secret requests in (`npm run store:migrate`); true when inserted. */
  async importWebhook(w: StoredWebhook): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'INSERT INTO webhooks (id, user_id, created_at, events, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [w.id, w.userId, w.createdAt, w.events, w],
    );
    return Boolean(rowCount);
  }

  async importDelivery(d: StoredDelivery): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, user_id, type, body, created_at, attempts, next_attempt_at, state, last_status, last_error, last_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
      [d.id, d.webhookId, d.userId, d.type, d.body, d.createdAt, d.attempts, d.nextAttemptAt, d.state, d.lastStatus, d.lastError, d.lastAttemptAt],
    );
    return Boolean(rowCount);
  }

  /** A mail copied as it is, with its state (sent, given up or still pending) and attempts (store:migrate). */
  async importMail(m: StoredMail): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO mail_outbox (${MAIL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
      [m.id, m.userId, m.kind, m.message, m.createdAt, m.attempts, m.nextAttemptAt, m.leaseUntil, m.state, m.lastError, m.lastAttemptAt],
    );
    return Boolean(rowCount);
  }

  /** One mail by its id (store:migrate's verification). */
  async getMail(id: string): Promise<StoredMail | undefined> {
    const { rows } = await this.db.query(`SELECT ${MAIL_COLUMNS} FROM mail_outbox WHERE id = $1`, [id]);
    return rows[0] ? mailFromRow(rows[0]) : undefined;
  }

  async importRequest(r: StoredRequest): Promise<boolean> {
    const { rowCount } = await this.db.query('INSERT INTO secret_requests (id, owner_id, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [r.id, r.ownerId, r]);
    return Boolean(rowCount);
  }

  async auditCount(token: string): Promise<number> {
    const { rows } = await this.db.query('SELECT count(*)::int AS n FROM audit WHERE token = $1', [token]);
    return rows[0].n as number;
  }

  /** One round trip: reachable, accepting writes (not a standby, not read-only), schema as at start. */
  async checkReady(): Promise<void> {
    let row: { read_only: boolean; version: number | null };
    try {
      const { rows } = await this.db.query(
        `SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' AS read_only,
                (SELECT max(version) FROM schema_version) AS version`,
      );
      row = rows[0];
    } catch (e) {
      throw new StoreNotReady('the store is unreachable', (e as Error).message);
    }
    if (row.read_only) throw new StoreNotReady('the store cannot be written', 'the database is read-only (a standby, or read-only by setting)');
    if (row.version !== this.schemaVersion) {
      throw new StoreNotReady('the store schema is not current', `schema version ${row.version}, this server runs ${this.schemaVersion}`);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** A failure to reach or log in to the database at start, said plainly (never with the password). */
function startupError(e: unknown, url: string): unknown {
  const code = (e as { code?: string })?.code;
  let where = 'the database in DATABASE_URL';
  try {
    const u = new URL(url);
    where = `PostgreSQL at ${u.hostname}:${u.port || 5432} (database ${u.pathname.slice(1) || u.username})`;
  } catch {
    // An unparsable URL is reported as it is by the driver.
  }
  if (isUnavailable(e)) return new StorageUnavailableError(`Cannot reach ${where} (${code ?? (e as Error).message}). Check DATABASE_URL and that the database server is running.`, { cause: e, retryAfterSeconds: 2 });
  if (code === '28P01' || code === '28000') return new StorageUnavailableError(`${where} refused the login (${code}): check the user and password in DATABASE_URL.`, { cause: e });
  if (code === '3D000') return new StorageUnavailableError(`${where} does not exist (${code}): create it first (createdb), or fix DATABASE_URL.`, { cause: e });
  return e;
}

/** $1…$7 of the pushes table, from the record. */
function pushColumns(p: StoredPush) {
  return [p.token, p.ownerId, p.createdAt, p.expiresAt, p.expiredAt, p.filesPurgeAt, p];
}

/** pushColumns and the batch id, which only an INSERT writes (migration 0021: no update touches it). */
function insertedPushColumns(p: StoredPush) {
  return [...pushColumns(p), p.batchId ?? null];
}

/**
 * The outbox rows of `events` (see Store.insertPush), in the caller's transaction: one per
 * webhook of the event's account subscribed to its type (the rule of storage/outbox.ts).
 */
async function writeOutbox(tx: Queryable, events: WebhookEvent[]): Promise<void> {
  await tx.query(outboxInsert('$1'), [JSON.stringify(events)]);
}

/**
 * The outbox INSERT for the events (a JSON array) in `param`; `join` may tie it to a CTE's row.
 * The webhooks are read FOR KEY SHARE: a webhook whose delete commits while this runs is skipped
 * (read committed rechecks a locked row), and one locked here cannot be deleted until this
 * commits. A plain read could pick a webhook deleted before the foreign-key check, which then
 * failed the whole write (webhook_deliveries_webhook_id_fkey: the push was not stored, 500).
 */
function outboxInsert(param: string, join = ''): string {
  return `INSERT INTO webhook_deliveries (id, webhook_id, user_id, type, body, created_at, next_attempt_at)
     SELECT e.id || '_' || w.id, w.id, w.user_id, e.type, e.body, e.at, e.at
     FROM json_to_recordset(${param}::json) AS e(id text, type text, "userId" text, body text, at timestamptz) ${join}
     JOIN webhooks w ON w.user_id = e."userId" AND e.type = ANY (w.events)
     FOR KEY SHARE OF w`;
}

const DELIVERY_COLUMNS = `id, webhook_id, user_id, type, body, created_at, attempts, next_attempt_at, lease_until, state,
  last_status, last_error, last_attempt_at`;

const iso = (v: Date | null) => (v ? v.toISOString() : null);

const MAIL_COLUMNS = 'id, user_id, kind, message, created_at, attempts, next_attempt_at, lease_until, state, last_error, last_attempt_at';

/** The outbox rows of `mails`, in the caller's transaction (or alone); an id already there is kept. */
async function insertMailRows(tx: Queryable, mails: StoredMail[]): Promise<void> {
  await tx.query(mailInsert('$1'), [JSON.stringify(mails)]);
}

/** The mail outbox INSERT for the mails (a JSON array) in `param`; `join` may tie it to a CTE's row. */
function mailInsert(param: string, join = ''): string {
  return `INSERT INTO mail_outbox (id, user_id, kind, message, created_at, attempts, next_attempt_at, state)
     SELECT m.id, m."userId", m.kind, m.message, m."createdAt"::timestamptz, 0, m."nextAttemptAt"::timestamptz, 'pending'
     FROM json_to_recordset(${param}::json) AS m(id text, "userId" text, kind text, message text, "createdAt" text, "nextAttemptAt" text) ${join}
     ON CONFLICT (id) DO NOTHING`;
}

function mailFromRow(r: Record<string, never>): StoredMail {
  return storedMailSchema.parse({
    id: r.id,
    userId: r.user_id,
    kind: r.kind,
    message: r.message,
    createdAt: iso(r.created_at),
    attempts: r.attempts,
    nextAttemptAt: iso(r.next_attempt_at),
    leaseUntil: iso(r.lease_until),
    state: r.state,
    lastError: r.last_error,
    lastAttemptAt: iso(r.last_attempt_at),
  });
}

function deliveryFromRow(r: Record<string, never>): StoredDelivery {
  return storedDeliverySchema.parse({
    id: r.id,
    webhookId: r.webhook_id,
    userId: r.user_id,
    type: r.type,
    body: r.body,
    createdAt: iso(r.created_at),
    attempts: r.attempts,
    nextAttemptAt: iso(r.next_attempt_at),
    leaseUntil: iso(r.lease_until),
    state: r.state,
    lastStatus: r.last_status,
    lastError: r.last_error,
    lastAttemptAt: iso(r.last_attempt_at),
  });
}
