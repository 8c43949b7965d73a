import { existsSync, readFileSync, writeFileSync, type Dirent } from 'node:fs';
import { readdir, stat, statfs, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DiskBlobStore } from './disk-blob-store.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { Journal, type Change, type Data, type JournalOptions } from './journal.js';
import { editableCopy, recordChange } from './record-change.js';
import { MemoryLimitCounters } from './memory-limit-counters.js';
import {
  auditRecordSchema,
  storedApiTokenSchema,
  storedConnectCodeSchema,
  storedDeliverySchema,
  storedMailSchema,
  storedMultipartUploadSchema,
  storedPushSchema,
  storedRequestSchema,
  storedSessionSchema,
  storedUserSchema,
  storedWebhookSchema,
  type AuditRecord,
  type DeliveryOutcome,
  type MailOutcome,
  type StoredApiToken,
  type StoredConnectCode,
  type StoredMail,
  type StoredMultipartUpload,
  type StoredDelivery,
  type StoredPush,
  type StoredRequest,
  type StoredSession,
  type StoredUser,
  type StoredWebhook,
  type WebhookEvent,
} from '../records.js';
import { auditList, deliveriesFor } from '../outbox.js';
import {
  adminLogEntrySchema,
  matchesAuditFilter,
  storedInviteSchema,
  type AdminLogEntry,
  type InstanceAuditEntry,
  type InstanceAuditFilter,
  type StoredInvite,
} from '../admin-records.js';
import { SharedStrings, shareRepeatedStrings } from './shared-strings.js';
import { refuseAddressChange, StoreNotReady, type BlobStore, type DueWork, type EndpointShare, type LimitCounters, type PushChange, type PushLink, type RequestChange, type Store } from '../store.js';

/**
 * Audit trails are kept whole (Password Pusher caps them; a silently truncated trail hides who
 * opened a secret): the journal's append needs a bound, and this one is never reached.
 */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

const dataSchema = z.object({
  pushes: z.record(z.string(), storedPushSchema),
  audit: z.record(z.string(), z.array(auditRecordSchema)),
  users: z.record(z.string(), storedUserSchema),
  apiTokens: z.record(z.string(), storedApiTokenSchema),
  sessions: z.record(z.string(), storedSessionSchema),
  webhooks: z.record(z.string(), storedWebhookSchema),
  deliveries: z.record(z.string(), storedDeliverySchema),
  requests: z.record(z.string(), storedRequestSchema),
  // Absent from data files written before the administration area (issue 32).
  adminLog: z.record(z.string(), adminLogEntrySchema).optional(),
  invites: z.record(z.string(), storedInviteSchema).optional(),
  /** Extension connect codes by hash (short-lived; a data file from before them has none). */
  connectCodes: z.record(z.string(), storedConnectCodeSchema).default({}),
  /** The mail outbox (a data file from before e-mail has none). */
  mails: z.record(z.string(), storedMailSchema).default({}),
  /** Multipart uploads started in object storage, by upload id (a data file from before them has none). */
  multipartUploads: z.record(z.string(), storedMultipartUploadSchema).default({}),
});
type DbData = z.infer<typeof dataSchema>;

/** The lock of a key nobody holds. */
const NO_HOLDER: Promise<unknown> = Promise.resolve();

const empty = (): Data => ({ pushes: {}, audit: {}, users: {}, apiTokens: {}, sessions: {}, webhooks: {}, deliveries: {}, requests: {}, adminLog: {}, invites: {}, connectCodes: {}, mails: {}, multipartUploads: {} });

export interface LowdbStoreOptions extends Pick<JournalOptions, 'compactAfterBytes' | 'requestedCompactionIntervalMs' | 'onCompactionError'> {
  /** Told when the directory's lock was left by a process that is gone (it did not stop cleanly). */
  onStaleLockTakenOver?: () => void;
}

const NOT_DUE = Symbol('not due');

function isDue(due: DueWork, p: StoredPush, nowIso: string): boolean {
  if (due === 'expiry') return !p.expiredAt && p.expiresAt <= nowIso;
  return Boolean(p.expiredAt && p.filesPurgeAt && p.filesPurgeAt <= nowIso);
}

/**
 * The embedded default store: lowdb's in-memory data made durable by a journal (journal.ts),
 * with the indexes the services need kept in memory and rebuilt on open.
 */
/** Below this much free space the store reports itself not ready: a push would not fit. */
const READY_MIN_FREE_BYTES = 1024 * 1024;

export class LowdbStore implements Store {
  readonly blobs: BlobStore;
  private readonly diskBlobs: DiskBlobStore;
  readonly counters: LimitCounters = new MemoryLimitCounters();
  /** Owner id → push tokens in creation order. */
  private readonly byOwner = new Map<string, string[]>();
  /** Tokens listed in byOwner (an owner's list may be long: no scan to know whether it is there). */
  private readonly owned = new Set<string>();
  private readonly active = new Set<string>();
  private readonly emailIndex = new Map<string, string>();
  private readonly tokenHashIndex = new Map<string, string>();
  /** Account id → its webhooks (the outbox looks them up on every event of an owned push). */
  private readonly webhooksByUser = new Map<string, StoredWebhook[]>();
  /** Deliveries not yet delivered or given up, in creation order. */
  private readonly pendingDeliveries = new Set<string>();
  /** Per-push promise chains: updates of one push run one after another. */
  private readonly locks = new Map<string, Promise<unknown>>();

  private constructor(
    private readonly journal: Journal,
    private readonly dataDir: string,
    private readonly lock: DataDirLock,
  ) {
    this.blobs = this.diskBlobs = new DiskBlobStore(dataDir, (token) => Object.hasOwn(this.db.pushes, token));
    const d = this.db;
    // Only owners' lists need creation order: sort just those pushes (most are anonymous), and
    // compare ISO times as strings (localeCompare would cost a third of the start-up).
    const owned: StoredPush[] = [];
    const shared = new SharedStrings();
    for (const token in d.pushes) {
      const p = d.pushes[token]!;
      shareRepeatedStrings(p, token, Object.hasOwn(d.audit, token) ? d.audit[token]! : [], shared);
      if (!p.expiredAt) this.active.add(token);
      if (p.ownerId) owned.push(p);
    }
    owned.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    for (const p of owned) this.index(p);
    for (const u of Object.values(d.users)) this.emailIndex.set(u.email, u.id);
    for (const t of Object.values(d.apiTokens)) this.tokenHashIndex.set(t.hash, t.id);
    const pending = Object.values(d.deliveries).filter((x) => x.state === 'pending');
    pending.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    for (const x of pending) this.pendingDeliveries.add(x.id);
    for (const w of Object.values(d.webhooks)) this.webhooksByUser.set(w.userId, [...(this.webhooksByUser.get(w.userId) ?? []), w]);
  }

  /**
   * Opens the store in `dataDir`, holding the directory's lock until close(): the data lives in
   * this process's memory, so a second process writing the same directory would lose changes.
   */
  static async open(dataDir: string, options: LowdbStoreOptions = {}): Promise<LowdbStore> {
    const lock = lockDataDir(dataDir);
    if (lock.tookOverStale) options.onStaleLockTakenOver?.();
    try {
      const journal = await Journal.open(dataDir, empty(), {
        ...options,
        validate: (data) => {
          const result = dataSchema.safeParse(data);
          if (!result.success) {
            const issue = result.error.issues[0]!;
            throw new Error(`${issue.path.join('.')}: ${issue.message}`);
          }
        },
      });
      return new LowdbStore(journal, dataDir, lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  private get db(): DbData {
    return this.journal.data as unknown as DbData;
  }

  private index(p: StoredPush) {
    if (p.ownerId && !this.owned.has(p.token)) {
      const list = this.byOwner.get(p.ownerId) ?? [];
      list.push(p.token);
      this.byOwner.set(p.ownerId, list);
      this.owned.add(p.token);
    }
    if (p.expiredAt) this.active.delete(p.token);
    else this.active.add(p.token);
  }

  /** withLocks for one key, without the arrays and Promise.all a list of keys needs (every push update takes one). */
  private withLock<T>(key: string, run: () => Promise<T>): Promise<T> {
    const next = (this.locks.get(key) ?? NO_HOLDER).then(run, run);
    const settled = next.catch(() => {});
    this.locks.set(key, settled);
    void settled.then(() => {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    });
    return next;
  }

  /** Runs `run` once every key's earlier holder is done, holding all the keys until it ends. */
  private withLocks<T>(keys: string[], run: () => Promise<T>): Promise<T> {
    const previous = Promise.all(keys.map((k) => this.locks.get(k)));
    const next = previous.then(run, run);
    const settled = next.catch(() => {});
    for (const k of keys) this.locks.set(k, settled);
    void settled.then(() => {
      for (const k of keys) if (this.locks.get(k) === settled) this.locks.delete(k);
    });
    return next;
  }

  async insertPush(push: StoredPush, creation: AuditRecord, events?: WebhookEvent[], mails: StoredMail[] = [], link?: PushLink): Promise<void> {
    const outbox = this.outbox(events);
    await this.journal.commit([
      { c: 'pushes', k: push.token, v: push },
      { c: 'audit', k: push.token, a: creation, max: UNBOUNDED },
      // One journal batch: the link is on both trails or on neither.
      ...(link ? [{ c: 'audit', k: push.token, a: link.entry, max: UNBOUNDED } as Change] : []),
      ...(link && Object.hasOwn(this.db.pushes, link.follows) ? [{ c: 'audit', k: link.follows, a: link.entry, max: UNBOUNDED } as Change] : []),
      ...outbox.map((x): Change => ({ c: 'deliveries', k: x.id, v: x })),
      ...this.newMails(mails),
    ]);
    this.index(push);
    await this.settleOutbox(outbox);
  }

  /** The deliveries of `events`, committed in the same journal batch as the change. */
  private outbox(events: WebhookEvent[] | undefined): StoredDelivery[] {
    if (!events?.length) return [];
    return events.flatMap((e) => deliveriesFor(e, this.webhooksByUser.get(e.userId) ?? []));
  }

  /**
   * After an outbox is committed: its deliveries join the pending set, except those for a webhook
   * whose removal was committed first, which are removed again. deleteWebhook removes the ones
   * committed before its own check; this, the ones after, so none outlives its webhook whichever
   * commit lands first. The change they came with stands even if this cleanup cannot be written
   * (the worker skips a delivery without a webhook).
   */
  private async settleOutbox(outbox: StoredDelivery[]): Promise<void> {
    if (!outbox.length) return;
    const orphans: StoredDelivery[] = [];
    for (const x of outbox) {
      if (!Object.hasOwn(this.db.deliveries, x.id)) continue; // removed with its webhook already
      if (Object.hasOwn(this.db.webhooks, x.webhookId)) this.pendingDeliveries.add(x.id);
      else orphans.push(x);
    }
    if (orphans.length) await this.journal.commit(orphans.map((x): Change => ({ c: 'deliveries', k: x.id, v: null }))).catch(() => undefined);
  }

  async getPush(token: string): Promise<StoredPush | undefined> {
    return Object.hasOwn(this.db.pushes, token) ? this.db.pushes[token] : undefined;
  }

  updatePush<T>(token: string, change: (push: StoredPush) => PushChange<T>): Promise<T | undefined> {
    return this.withLock(token, async () => {
      const current = await this.getPush(token);
      if (!current) return undefined;
      const { next, audit, events, mails, result } = change(editableCopy(current));
      const changes: Change[] = [];
      const written = next && recordChange('pushes', token, current, next);
      if (written) changes.push(written);
      for (const a of auditList(audit)) changes.push({ c: 'audit', k: token, a, max: UNBOUNDED });
      const outbox = this.outbox(events);
      for (const x of outbox) changes.push({ c: 'deliveries', k: x.id, v: x });
      changes.push(...this.newMails(mails ?? []));
      if (changes.length) await this.journal.commit(changes);
      await this.settleOutbox(outbox);
      if (next) {
        this.index(next);
        if (next.expiredAt && !current.expiredAt) this.journal.requestCompaction();
      }
      return result;
    });
  }

  appendAudit(token: string, entry: AuditRecord): Promise<void> {
    return this.withLock(token, async () => {
      // A push deleted by retention meanwhile has no trail to append to: nothing to record.
      if (Object.hasOwn(this.db.pushes, token)) await this.journal.commit([{ c: 'audit', k: token, a: entry, max: UNBOUNDED }]);
    });
  }

  async listAudit(token: string, offset: number, limit: number): Promise<AuditRecord[]> {
    const list = Object.hasOwn(this.db.audit, token) ? this.db.audit[token]! : [];
    return list.slice(offset, offset + limit);
  }

  async listPushesByOwner(ownerId: string, expired: boolean, offset: number, limit: number): Promise<StoredPush[]> {
    const tokens = this.byOwner.get(ownerId) ?? [];
    const out: StoredPush[] = [];
    let skipped = 0;
    for (let i = tokens.length - 1; i >= 0 && out.length < limit; i--) {
      const p = this.db.pushes[tokens[i]!];
      if (!p || (p.expiredAt !== null) !== expired) continue;
      if (skipped++ < offset) continue;
      out.push(p);
    }
    return out;
  }

  async listPushesOfBatch(ownerId: string, batchId: string, limit: number): Promise<StoredPush[]> {
    const out: StoredPush[] = [];
    for (const token of this.byOwner.get(ownerId) ?? []) {
      const p = this.db.pushes[token];
      if (p?.batchId === batchId) out.push(p);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** One process holds the data directory, so "skipping what another instance handles" is moot. */
  async updateDuePushes<T>(due: DueWork, now: Date, limit: number, change: (push: StoredPush) => PushChange<T>): Promise<T[]> {
    const iso = now.toISOString();
    const tokens: string[] = [];
    const candidates = due === 'expiry' ? this.active : Object.keys(this.db.pushes);
    for (const token of candidates) {
      if (tokens.length >= limit) break;
      const p = this.db.pushes[token];
      if (p && isDue(due, p, iso)) tokens.push(token);
    }
    const results: T[] = [];
    for (const token of tokens) {
      // Re-checked under the push's lock: a request may have expired it meanwhile.
      const result = await this.updatePush<T | typeof NOT_DUE>(token, (p) => (isDue(due, p, iso) ? change(p) : { result: NOT_DUE }));
      if (result !== undefined && result !== NOT_DUE) results.push(result as T);
    }
    return results;
  }

  async deleteExpiredBefore(expiredBefore: Date, limit: number): Promise<number> {
    const iso = expiredBefore.toISOString();
    const due = (p: StoredPush | undefined): p is StoredPush => Boolean(p?.expiredAt && p.expiredAt < iso);
    const tokens: string[] = [];
    for (const p of Object.values(this.db.pushes)) {
      if (tokens.length >= limit) break;
      if (due(p)) tokens.push(p.token);
    }
    if (!tokens.length) return 0;
    // Under each push's lock, like every other change of it: a view or DELETE that has read the
    // push must not write it back after its deletion (nor the deletion drop that write).
    return this.withLocks(tokens, async () => {
      const doomed = tokens.map((t) => (Object.hasOwn(this.db.pushes, t) ? this.db.pushes[t] : undefined)).filter(due);
      if (!doomed.length) return 0;
      for (const p of doomed) await this.blobs.removeAll(p.token);
      await this.journal.commit(doomed.flatMap((p): Change[] => [
        { c: 'pushes', k: p.token, v: null },
        { c: 'audit', k: p.token, v: null },
      ]));
      for (const p of doomed) {
        this.active.delete(p.token);
        this.owned.delete(p.token);
        if (p.ownerId) {
          const list = this.byOwner.get(p.ownerId)?.filter((t) => t !== p.token) ?? [];
          if (list.length) this.byOwner.set(p.ownerId, list);
          else this.byOwner.delete(p.ownerId);
        }
      }
      this.journal.requestCompaction();
      return doomed.length;
    });
  }

  async renamePushes(rename: (push: StoredPush) => StoredPush | undefined): Promise<number> {
    let moved = 0;
    for (const token of Object.keys(this.db.pushes)) {
      moved += await this.withLock(token, async () => {
        const current = Object.hasOwn(this.db.pushes, token) ? this.db.pushes[token]! : undefined;
        const next = current && rename(editableCopy(current));
        if (!current || !next || next.token === token) return 0;
        // Files first: a crash after this step leaves the record under its old token, and the
        // next run moves it (the files are already in place, which move() accepts).
        await this.diskBlobs.move(token, next.token);
        const trail = Object.hasOwn(this.db.audit, token) ? [...this.db.audit[token]!] : [];
        await this.journal.commit([
          { c: 'pushes', k: next.token, v: next },
          { c: 'audit', k: next.token, v: trail },
          { c: 'pushes', k: token, v: null },
          { c: 'audit', k: token, v: null },
        ]);
        this.active.delete(token);
        if (this.owned.delete(token) && current.ownerId) {
          // Same place in the owner's list: it keeps creation order.
          const list = this.byOwner.get(current.ownerId)!;
          list[list.indexOf(token)] = next.token;
          this.owned.add(next.token);
        }
        this.index(next);
        return 1;
      });
    }
    // The old tokens also leave the journal file.
    if (moved) this.journal.requestCompaction();
    return moved;
  }

  async storedBytes(): Promise<number> {
    return bytesUnder(this.dataDir);
  }

  async countPushes() {
    return { active: this.active.size, total: Object.keys(this.db.pushes).length };
  }

  async insertRequest(request: StoredRequest): Promise<void> {
    await this.journal.commit([{ c: 'requests', k: request.id, v: request }]);
  }

  async getRequest(id: string): Promise<StoredRequest | undefined> {
    return Object.hasOwn(this.db.requests, id) ? this.db.requests[id] : undefined;
  }

  async listRequestsByOwner(ownerId: string, offset: number, limit: number): Promise<StoredRequest[]> {
    const mine = Object.values(this.db.requests).filter((r) => r.ownerId === ownerId);
    mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return mine.slice(offset, offset + limit);
  }

  async deleteRequestsBefore(before: Date, limit: number): Promise<number> {
    const iso = before.toISOString();
    const ids: string[] = [];
    for (const id in this.db.requests) {
      if (ids.length >= limit) break;
      const r = this.db.requests[id]!;
      if ((r.answeredAt ?? r.closedAt ?? r.expiresAt) < iso) ids.push(id);
    }
    if (!ids.length) return 0;
    // Under each request's lock: an answer being stored must not be undone by the deletion.
    return this.withLocks(
      ids.map((id) => `request:${id}`),
      async () => {
        const doomed = ids.filter((id) => Object.hasOwn(this.db.requests, id) && (this.db.requests[id]!.answeredAt ?? this.db.requests[id]!.closedAt ?? this.db.requests[id]!.expiresAt) < iso);
        if (doomed.length) await this.journal.commit(doomed.map((id): Change => ({ c: 'requests', k: id, v: null })));
        return doomed.length;
      },
    );
  }

  updateRequest<T>(id: string, change: (request: StoredRequest) => RequestChange<T>): Promise<T | undefined> {
    // Under the request's lock (its own key space: request ids and push tokens never meet).
    return this.withLock(`request:${id}`, async () => {
      const current = await this.getRequest(id);
      if (!current) return undefined;
      const { next, push, events, mails, result } = change(editableCopy(current));
      const outbox = this.outbox(events);
      const changes: Change[] = [...this.newMails(mails ?? [])];
      if (next) changes.push({ c: 'requests', k: id, v: next });
      if (push) {
        changes.push({ c: 'pushes', k: push.push.token, v: push.push });
        changes.push({ c: 'audit', k: push.push.token, a: push.creation, max: UNBOUNDED });
      }
      for (const x of outbox) changes.push({ c: 'deliveries', k: x.id, v: x });
      if (changes.length) await this.journal.commit(changes);
      if (push) this.index(push.push);
      await this.settleOutbox(outbox);
      return result;
    });
  }

  insertWebhook(webhook: StoredWebhook, maxPerAccount: number): Promise<boolean> {
    // Under the account's lock: each insert counts the ones before it.
    return this.withLock(`webhooks:${webhook.userId}`, async () => {
      if ((this.webhooksByUser.get(webhook.userId)?.length ?? 0) >= maxPerAccount) return false;
      await this.journal.commit([{ c: 'webhooks', k: webhook.id, v: webhook }]);
      this.webhooksByUser.set(webhook.userId, [...(this.webhooksByUser.get(webhook.userId) ?? []), webhook]);
      return true;
    });
  }

  async listWebhooks(userId: string): Promise<StoredWebhook[]> {
    return [...(this.webhooksByUser.get(userId) ?? [])].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async deleteWebhook(userId: string, id: string): Promise<boolean> {
    const w = Object.hasOwn(this.db.webhooks, id) ? this.db.webhooks[id] : undefined;
    if (!w || w.userId !== userId) return false;
    // Out of the account's list first: no outbox made from now on has a delivery for it.
    const before = this.webhooksByUser.get(userId) ?? [];
    const left = before.filter((x) => x.id !== id);
    if (left.length) this.webhooksByUser.set(userId, left);
    else this.webhooksByUser.delete(userId);
    const deliveriesOf = () => Object.values(this.db.deliveries).filter((d) => d.webhookId === id);
    try {
      await this.journal.commit([{ c: 'webhooks', k: id, v: null }, ...deliveriesOf().map((d): Change => ({ c: 'deliveries', k: d.id, v: null }))]);
    } catch (e) {
      if (Object.hasOwn(this.db.webhooks, id)) this.webhooksByUser.set(userId, [...(this.webhooksByUser.get(userId) ?? []), w]);
      throw e;
    }
    // Outboxes made before, committed meanwhile (settleOutbox removes those committed after this).
    const late = deliveriesOf();
    if (late.length) await this.journal.commit(late.map((d): Change => ({ c: 'deliveries', k: d.id, v: null })));
    for (const d of [...this.pendingDeliveries]) if (!Object.hasOwn(this.db.deliveries, d)) this.pendingDeliveries.delete(d);
    return true;
  }

  /** Leases live in memory: one process holds the data directory, and a crash ends them all. */
  private readonly leases = new Map<string, number>();

  async claimDeliveries(now: Date, leaseUntil: Date, limit: number, endpoints?: EndpointShare): Promise<StoredDelivery[]> {
    const iso = now.toISOString();
    const out: StoredDelivery[] = [];
    const skip = new Set(endpoints?.skip);
    const perWebhook = new Map<string, number>();
    for (const id of this.pendingDeliveries) {
      if (out.length >= limit) break;
      const d = this.db.deliveries[id];
      if (!d || d.state !== 'pending' || (d.nextAttemptAt !== null && d.nextAttemptAt > iso)) continue;
      if ((this.leases.get(id) ?? 0) > now.getTime()) continue;
      if (endpoints) {
        const n = perWebhook.get(d.webhookId) ?? 0;
        if (skip.has(d.webhookId) || n >= endpoints.perWebhook) continue;
        perWebhook.set(d.webhookId, n + 1);
      }
      this.leases.set(id, leaseUntil.getTime());
      out.push({ ...d, leaseUntil: leaseUntil.toISOString() });
    }
    return out;
  }

  async finishDelivery(id: string, outcome: DeliveryOutcome): Promise<void> {
    this.leases.delete(id);
    const d = Object.hasOwn(this.db.deliveries, id) ? this.db.deliveries[id] : undefined;
    // Its webhook was deleted while the attempt ran: nothing left to record.
    if (!d) return;
    await this.journal.commit([{ c: 'deliveries', k: id, v: { ...d, ...outcome, leaseUntil: null } }]);
    if (outcome.state !== 'pending') this.pendingDeliveries.delete(id);
  }

  async insertMails(mails: StoredMail[]): Promise<void> {
    const fresh = this.newMails(mails);
    if (fresh.length) await this.journal.commit(fresh);
  }

  async claimMails(now: Date, leaseUntil: Date, limit: number): Promise<StoredMail[]> {
    const iso = now.toISOString();
    const due = Object.values(this.db.mails).filter(
      (m) => m.state === 'pending' && (m.nextAttemptAt === null || m.nextAttemptAt <= iso) && (this.leases.get(`mail:${m.id}`) ?? 0) <= now.getTime(),
    );
    due.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    return due.slice(0, limit).map((m) => {
      this.leases.set(`mail:${m.id}`, leaseUntil.getTime());
      return { ...m, leaseUntil: leaseUntil.toISOString() };
    });
  }

  async finishMail(id: string, outcome: MailOutcome): Promise<void> {
    this.leases.delete(`mail:${id}`);
    const m = Object.hasOwn(this.db.mails, id) ? this.db.mails[id] : undefined;
    if (!m) return;
    await this.journal.commit([{ c: 'mails', k: id, v: { ...m, ...outcome, leaseUntil: null } }]);
  }

  async listGivenUpMails(offset: number, limit: number): Promise<StoredMail[]> {
    // Newest first; among mails made in the same millisecond, the later inserted first (the sort is stable).
    const failed = Object.values(this.db.mails).filter((m) => m.state === 'failed').reverse();
    failed.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return failed.slice(offset, offset + limit);
  }

  async listMails(userId: string, limit: number): Promise<StoredMail[]> {
    const mine = Object.values(this.db.mails).filter((m) => m.userId === userId);
    mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return mine.slice(0, limit);
  }

  async deleteFinishedDeliveries(before: Date, limit: number): Promise<number> {
    const iso = before.toISOString();
    const ids: string[] = [];
    for (const id in this.db.deliveries) {
      if (ids.length >= limit) break;
      const d = this.db.deliveries[id]!;
      if (d.state !== 'pending' && d.lastAttemptAt !== null && d.lastAttemptAt < iso) ids.push(id);
    }
    if (ids.length) await this.journal.commit(ids.map((id) => ({ c: 'deliveries', k: id, v: null })));
    return ids.length;
  }

  async listDeliveries(userId: string, limit: number): Promise<StoredDelivery[]> {
    const mine = Object.values(this.db.deliveries).filter((d) => d.userId === userId);
    mine.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return mine.slice(0, limit);
  }

  insertUser(user: StoredUser, mails: StoredMail[] = []): Promise<void> {
    // Under the email's lock: a second insert of the same email waits for the first and is refused.
    return this.withLock(`email:${user.email}`, async () => {
      if (this.emailIndex.has(user.email)) throw new Error(`an account with the email ${user.email} exists`);
      await this.journal.commit([{ c: 'users', k: user.id, v: user }, ...this.newMails(mails)]);
      this.emailIndex.set(user.email, user.id);
    });
  }

  async updateUser(user: StoredUser, mails: StoredMail[] = []): Promise<void> {
    if (!Object.hasOwn(this.db.users, user.id)) throw new Error(`no user ${user.id}`);
    const before = this.db.users[user.id]!.email;
    if (before === user.email) {
      await this.journal.commit([{ c: 'users', k: user.id, v: user }, ...this.newMails(mails)]);
      return;
    }
    // A new address (an e-mail change): under its lock, refused when another account has it, as an insert is.
    await this.withLock(`email:${user.email}`, async () => {
      if (this.emailIndex.has(user.email)) throw new Error(`an account with the email ${user.email} exists`);
      await this.journal.commit([{ c: 'users', k: user.id, v: user }, ...this.newMails(mails)]);
      this.emailIndex.delete(before);
      this.emailIndex.set(user.email, user.id);
    });
  }

  /** The journal changes that add `mails` to the outbox (an id already there is kept). */
  private newMails(mails: StoredMail[]): Change[] {
    return mails.filter((m) => !Object.hasOwn(this.db.mails, m.id)).map((m): Change => ({ c: 'mails', k: m.id, v: m }));
  }

  changeUser<T>(id: string, change: (user: StoredUser) => { next?: StoredUser; result: T }): Promise<T | undefined> {
    return this.withLock(`user:${id}`, async () => {
      if (!Object.hasOwn(this.db.users, id)) return undefined;
      const { next, result } = change(structuredClone(this.db.users[id]!));
      if (next) refuseAddressChange(this.db.users[id]!, next);
      if (next) await this.journal.commit([{ c: 'users', k: id, v: { ...next, id } }]);
      return result;
    });
  }

  async getUser(id: string) {
    return Object.hasOwn(this.db.users, id) ? this.db.users[id] : undefined;
  }

  async getUserByEmail(email: string) {
    const id = this.emailIndex.get(email);
    return id ? this.db.users[id] : undefined;
  }

  async listUsers(query: string, offset: number, limit: number): Promise<StoredUser[]> {
    const users = Object.values(this.db.users).filter((u) => u.email.includes(query));
    users.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
    return users.slice(offset, offset + limit);
  }

  async deleteUser(id: string): Promise<boolean> {
    const user = Object.hasOwn(this.db.users, id) ? this.db.users[id]! : undefined;
    if (!user) return false;
    for (const w of [...(this.webhooksByUser.get(id) ?? [])]) await this.deleteWebhook(id, w.id);
    const tokens = Object.values(this.db.apiTokens).filter((t) => t.userId === id);
    const changes: Change[] = [
      { c: 'users', k: id, v: null },
      ...tokens.map((t): Change => ({ c: 'apiTokens', k: t.id, v: null })),
      ...Object.values(this.db.sessions).filter((x) => x.userId === id).map((x): Change => ({ c: 'sessions', k: x.id, v: null })),
      ...Object.values(this.db.requests).filter((r) => r.ownerId === id).map((r): Change => ({ c: 'requests', k: r.id, v: null })),
    ];
    await this.withLock(`email:${user.email}`, () => this.journal.commit(changes));
    this.emailIndex.delete(user.email);
    for (const t of tokens) this.tokenHashIndex.delete(t.hash);
    return true;
  }

  async listAllPushes(offset: number, limit: number): Promise<StoredPush[]> {
    const tokens = Object.keys(this.db.pushes);
    const out: StoredPush[] = [];
    for (let i = tokens.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(this.db.pushes[tokens[i]!]!);
    return out;
  }

  /** The trails are in memory already: the export's bound is on what it holds beside them. */
  async *streamInstanceAudit(filter: InstanceAuditFilter): AsyncIterable<InstanceAuditEntry> {
    const tokens = filter.push !== undefined ? [filter.push] : Object.keys(this.db.audit);
    for (const token of tokens) {
      const trail = Object.hasOwn(this.db.audit, token) ? this.db.audit[token]! : [];
      const owner = Object.hasOwn(this.db.pushes, token) ? this.db.pushes[token]!.ownerId : null;
      if (filter.owner !== undefined && owner !== filter.owner) continue;
      for (const e of trail) {
        const entry: InstanceAuditEntry = { push: token, owner, kind: e.kind, ip: e.ip, userAgent: e.userAgent, at: e.at };
        if (matchesAuditFilter(filter, entry)) yield entry;
      }
    }
  }

  async appendAdminLog(entry: AdminLogEntry): Promise<void> {
    await this.journal.commit([{ c: 'adminLog', k: entry.id, v: entry }]);
  }

  async listAdminLog(offset: number, limit: number): Promise<AdminLogEntry[]> {
    const entries = Object.values(this.db.adminLog ?? {});
    const out: AdminLogEntry[] = [];
    for (let i = entries.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(entries[i]!);
    return out;
  }

  async insertInvite(invite: StoredInvite): Promise<void> {
    await this.journal.commit([{ c: 'invites', k: invite.id, v: invite }]);
  }

  useInvite(id: string, now: Date, email: string): Promise<StoredInvite | undefined> {
    return this.withLock(`invite:${id}`, async () => {
      const invites = this.db.invites ?? {};
      const invite = Object.hasOwn(invites, id) ? invites[id]! : undefined;
      if (!invite || invite.usedAt !== null || invite.expiresAt <= now.toISOString() || (invite.email !== null && invite.email !== email)) return undefined;
      const used = { ...invite, usedAt: now.toISOString() };
      await this.journal.commit([{ c: 'invites', k: id, v: used }]);
      return used;
    });
  }

  async listInvites(limit: number, offset = 0): Promise<StoredInvite[]> {
    // Newest first; the stable sort keeps the newer of two made in the same millisecond first.
    const newestFirst = Object.values(this.db.invites ?? {}).reverse().sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    return newestFirst.slice(offset, offset + limit);
  }

  revokeInvite(id: string, now: Date): Promise<StoredInvite | undefined> {
    return this.withLock(`invite:${id}`, async () => {
      const invites = this.db.invites ?? {};
      const invite = Object.hasOwn(invites, id) ? invites[id]! : undefined;
      const at = now.toISOString();
      if (!invite || invite.usedAt !== null || invite.expiresAt <= at) return undefined;
      const revoked = { ...invite, revokedAt: at, expiresAt: at };
      await this.journal.commit([{ c: 'invites', k: id, v: revoked }]);
      return revoked;
    });
  }

  async insertApiToken(token: StoredApiToken): Promise<void> {
    await this.journal.commit([{ c: 'apiTokens', k: token.id, v: token }]);
    this.tokenHashIndex.set(token.hash, token.id);
  }

  async getApiTokenByHash(hash: string) {
    const id = this.tokenHashIndex.get(hash);
    return id ? this.db.apiTokens[id] : undefined;
  }

  async listApiTokens(userId: string) {
    return Object.values(this.db.apiTokens)
      .filter((t) => t.userId === userId)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async deleteApiToken(id: string): Promise<void> {
    const existing = this.db.apiTokens[id];
    if (!existing) return;
    await this.journal.commit([{ c: 'apiTokens', k: id, v: null }]);
    this.tokenHashIndex.delete(existing.hash);
  }

  async insertConnectCode(code: StoredConnectCode): Promise<void> {
    await this.journal.commit([{ c: 'connectCodes', k: code.hash, v: code }]);
  }

  redeemConnectCode(hash: string, usedAt: string, tokenId: string): Promise<{ first: boolean; code: StoredConnectCode } | undefined> {
    // Serialised per code: two exchanges at once must not both find it unused before either commits.
    return this.withLock(`connect-code:${hash}`, async () => {
      const codes = this.db.connectCodes;
      const code = Object.hasOwn(codes, hash) ? codes[hash]! : undefined;
      if (!code) return undefined;
      if (code.usedAt) return { first: false, code };
      const used = { ...code, usedAt, tokenId };
      await this.journal.commit([{ c: 'connectCodes', k: hash, v: used }]);
      return { first: true, code: used };
    });
  }

  async deleteExpiredConnectCodes(before: Date, limit: number): Promise<number> {
    const iso = before.toISOString();
    const hashes: string[] = [];
    for (const hash in this.db.connectCodes) {
      if (hashes.length >= limit) break;
      if (this.db.connectCodes[hash]!.expiresAt < iso) hashes.push(hash);
    }
    if (hashes.length) await this.journal.commit(hashes.map((k) => ({ c: 'connectCodes', k, v: null })));
    return hashes.length;
  }

  async recordMultipartUpload(upload: StoredMultipartUpload): Promise<void> {
    if (Object.hasOwn(this.db.multipartUploads, upload.uploadId)) return;
    await this.journal.commit([{ c: 'multipartUploads', k: upload.uploadId, v: upload }]);
  }

  async forgetMultipartUpload(uploadId: string): Promise<void> {
    if (!Object.hasOwn(this.db.multipartUploads, uploadId)) return;
    await this.journal.commit([{ c: 'multipartUploads', k: uploadId, v: null }]);
  }

  async listMultipartUploads(before: Date, limit: number): Promise<StoredMultipartUpload[]> {
    const iso = before.toISOString();
    return Object.values(this.db.multipartUploads)
      .filter((u) => u.startedAt < iso)
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
      .slice(0, limit);
  }

  async insertSession(session: StoredSession): Promise<void> {
    await this.journal.commit([{ c: 'sessions', k: session.id, v: session }]);
  }

  async getSession(id: string) {
    return Object.hasOwn(this.db.sessions, id) ? this.db.sessions[id] : undefined;
  }

  async deleteExpiredSessions(now: Date, limit: number): Promise<number> {
    const iso = now.toISOString();
    const ids: string[] = [];
    for (const id in this.db.sessions) {
      if (ids.length >= limit) break;
      if (this.db.sessions[id]!.expiresAt <= iso) ids.push(id);
    }
    if (ids.length) await this.journal.commit(ids.map((id) => ({ c: 'sessions', k: id, v: null })));
    return ids.length;
  }

  async deleteSessionsOfUser(userId: string, exceptId?: string): Promise<number> {
    const ids = Object.keys(this.db.sessions).filter((id) => id !== exceptId && this.db.sessions[id]!.userId === userId);
    if (ids.length) await this.journal.commit(ids.map((id) => ({ c: 'sessions', k: id, v: null })));
    return ids.length;
  }

  async deleteSession(id: string): Promise<void> {
    if (!Object.hasOwn(this.db.sessions, id)) return;
    await this.journal.commit([{ c: 'sessions', k: id, v: null }]);
  }

  /** Everything stored, for moving the store elsewhere (`npm run store:migrate`). */
  exportRecords() {
    const d = this.db;
    return {
      pushes: Object.values(d.pushes),
      auditOf: (token: string) => (Object.hasOwn(d.audit, token) ? d.audit[token]! : []),
      users: Object.values(d.users),
      apiTokens: Object.values(d.apiTokens),
      sessions: Object.values(d.sessions),
      webhooks: Object.values(d.webhooks),
      deliveries: Object.values(d.deliveries),
      requests: Object.values(d.requests),
      adminLog: Object.values(d.adminLog ?? {}),
      invites: Object.values(d.invites ?? {}),
      mails: Object.values(d.mails ?? {}),
    };
  }

  /** Settings are small files beside the store (the key check predates the store: `key-check`). */
  private settingPath(name: string) {
    if (!/^[a-z][a-z-]*$/.test(name)) throw new Error(`bad setting name ${name}`);
    return join(this.dataDir, name);
  }

  async settingOrInit(name: string, value: string): Promise<string> {
    const path = this.settingPath(name);
    if (existsSync(path)) return readFileSync(path, 'utf8').trim();
    await this.putSetting(name, value);
    return value;
  }

  async putSetting(name: string, value: string): Promise<void> {
    writeFileSync(this.settingPath(name), value + '\n', { mode: 0o600 });
  }

  /**
   * Ready unless closed, the disk is (nearly) full, or the last journal write failed and a
   * small write of our own fails too (the journal itself retries only when a change comes).
   */
  async checkReady(): Promise<void> {
    const problem = this.journal.writeProblem();
    if (problem === 'closed') throw new StoreNotReady('the store is closed', 'close() was called');
    const { bavail, bsize } = await statfs(this.dataDir);
    if (bavail * bsize < READY_MIN_FREE_BYTES) {
      throw new StoreNotReady('the store cannot be written', `${bavail * bsize} bytes free in ${this.dataDir}`);
    }
    if (problem) {
      const probe = join(this.dataDir, '.ready-probe');
      try {
        await writeFile(probe, Buffer.alloc(4096), { mode: 0o600, flush: true });
        await unlink(probe);
      } catch (e) {
        await unlink(probe).catch(() => {});
        throw new StoreNotReady('the store cannot be written', `the last write failed (${problem}), and so does a test write (${(e as NodeJS.ErrnoException).code})`);
      }
    }
  }

  async close(): Promise<void> {
    try {
      await this.journal.close();
    } finally {
      this.lock.release();
    }
  }
}

/** A directory or file removed while it was being read: an upload given up, a push's files deleted. */
const vanished = (e: unknown) => ['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

/**
 * The bytes of the files under `dir`, walked one directory at a time, so that a directory removed
 * during the walk is left out rather than failing it (readdir's recursive mode threw ENOENT for
 * the whole walk, and every request waiting on the storage cap's measurement answered 500).
 */
async function bytesUnder(dir: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if (vanished(e)) return 0;
    throw e;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      total += await bytesUnder(path);
    } else if (entry.isFile()) {
      try {
        total += (await stat(path)).size;
      } catch (e) {
        if (!vanished(e)) throw e;
      }
    }
  }
  return total;
}
