import { randomUUID } from 'node:crypto';
import { batchInputSchema, type BatchResult, type BatchRowResult } from '../../../shared/batch-schema.js';
import { ServiceError } from '../../service-error.js';
import type { LimitCounters } from '../../storage/store.js';
import type { Actor, PushService } from '../push-service.js';
import { checkRows, rowsFromCsv, type RecipientRow } from './batch-rows.js';
import { generatedSecret } from './generated-secret.js';

export interface BatchServiceDeps {
  pushes: PushService;
  counters: LimitCounters;
  /**
   * BATCH_ROWS_PER_HOUR: rows an account may create through batches per hour (0: off). The batch
   * request itself counts once against RATE_LIMIT_PER_MINUTE, like any request, so that a
   * 1,000-row batch works on a default install while a flood of rows still meets a limit.
   */
  batchRowsPerHour: number;
  clock?: () => number;
}

const ROWS_WINDOW_MS = 3_600_000;
const truthy = (v: unknown) => v === true || (typeof v === 'string' && ['true', '1', 'on', 'yes'].includes(v.trim().toLowerCase()));

/**
 * One link per recipient (issue 35 item 2). Every row is checked first (a bad list creates
 * nothing, 422 with each bad row's number); then each row becomes its own push through
 * PushService.create, so every rule of a single create applies to each row: the storage quota,
 * the e-mail limits, webhooks (one push.created per row), audit. Each row counts against the
 * account's batch-row budget (BATCH_ROWS_PER_HOUR). Rows are created one after another, each in its own atomic store write; the first
 * row a limit refuses stops the batch: that row is `failed` with the limit's status and message,
 * the ones after it `not_attempted`, the ones before it exist and their links are in the answer.
 * The server keeps no list of the links (only the owner's own sealed copy of each push's link, as
 * for any push made with an account): the answer is the sender's one copy.
 */
export class BatchService {
  private readonly now: () => number;

  constructor(private readonly deps: BatchServiceDeps) {
    this.now = deps.clock ?? Date.now;
  }

  async create(actor: Actor, raw: unknown): Promise<BatchResult> {
    const pushes: PushService = this.deps.pushes;
    pushes.assertApiAccess(actor);
    // A batch is always an account's: its dashboard groups it, and it is the way back to the links
    // if the answer is lost.
    pushes.requireAccount(actor, 'Sign in to create a batch: one link per recipient needs an account.');
    const parsed = batchInputSchema.safeParse(raw);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'batch')] ??= []).push(issue.message);
      throw ServiceError.validation(errors);
    }
    const input = parsed.data;
    if ((input.recipients === undefined) === (input.recipients_csv === undefined)) {
      throw ServiceError.validation({ recipients: ['give either recipients (a list) or recipients_csv (CSV text)'] });
    }
    const options = input.push ?? {};
    for (const key of ['payload', 'name', 'notify_emails'] as const) {
      if (key in options) throw ServiceError.validation({ [`push.${key}`]: ['is set per row in a batch, not for all of them'] });
    }
    // A row has no follows of its own either: one push followed by a thousand is not what linked
    // secrets are for (a second factor after its password), so say so instead of "per row".
    if ('follows' in options) throw ServiceError.validation({ 'push.follows': ['a batch\'s pushes cannot follow another push: make linked secrets one at a time'] });
    const generate = truthy(input.generate);
    const emailLinks = truthy(input.email_links);
    const { rows, problems } = checkRows(input.recipients ?? rowsFromCsv(input.recipients_csv!), generate);
    if (emailLinks && !rows.some((r) => r.email)) throw ServiceError.validation({ email_links: ['no row has an e-mail address'] });

    // Each row's create request; every one checked before any push is made.
    const inputs = rows.map((row) => ({ ...options, name: row.name, payload: row.payload ?? generatedSecret(), ...(emailLinks && row.email ? { notify_emails: [row.email] } : {}) }));
    checkEach(pushes, options, inputs, problems);

    const batchId = randomUUID();
    const results: BatchRowResult[] = [];
    let stopped = false;
    for (const [i, row] of rows.entries()) {
      if (stopped) {
        results.push({ ...rowFacts(row), status: 'not_attempted' });
        continue;
      }
      try {
        await this.countRow(actor.user.id);
        const created = await pushes.create(actor, inputs[i], undefined, { batchId });
        results.push({ ...rowFacts(row), status: 'created', url_token: created.url_token, html_url: created.html_url, ...(emailLinks ? { emailed: row.email !== null } : {}) });
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        stopped = true;
        results.push({ ...rowFacts(row), status: 'failed', error: e.fieldErrors ? JSON.stringify(e.fieldErrors) : e.message, http_status: e.status });
      }
    }
    const count = (s: BatchRowResult['status']) => results.filter((r) => r.status === s).length;
    return { batch_id: batchId, created: count('created'), failed: count('failed'), not_attempted: count('not_attempted'), rows: results };
  }

  /**
   * The account's batch-row budget, per row (on every instance: the counters are the store's).
   * A refused row is counted too; it is one of at most one per batch.
   */
  private async countRow(userId: string): Promise<void> {
    const limit = this.deps.batchRowsPerHour;
    if (limit <= 0) return;
    const now = this.now();
    const { count, resetAt } = await this.deps.counters.hit(`batch-rows:${userId}`, ROWS_WINDOW_MS, now);
    if (count > limit) {
      const message = `This account has created ${limit} batch rows this hour, the most allowed (BATCH_ROWS_PER_HOUR). Send the rest later.`;
      throw new ServiceError('too_many_requests', message, undefined, Math.max(1, Math.ceil((resetAt - now) / 1000)));
    }
  }
}

/**
 * The options, once (their errors under `push`), then each row (`row 3: payload is too long`):
 * a 422 with every problem, before anything is stored.
 */
function checkEach(pushes: PushService, options: Record<string, unknown>, inputs: Record<string, unknown>[], rowProblems: string[]): void {
  const problems = (input: unknown): string[] => {
    try {
      pushes.checkInput(input);
      return [];
    } catch (e) {
      if (!(e instanceof ServiceError) || !e.fieldErrors) throw e;
      return Object.entries(e.fieldErrors).flatMap(([field, messages]) => messages.map((m) => `${field} ${m}`));
    }
  };
  const common = problems({ ...options, payload: 'x' });
  if (common.length) throw ServiceError.validation({ push: common });
  const all = [...rowProblems, ...inputs.flatMap((input, i) => problems(input).map((p) => `row ${i + 1}: ${p}`))];
  // In row order: each row's problems together.
  const rowOf = (p: string) => Number(/^row (\d+)/.exec(p)?.[1]);
  all.sort((a, b) => rowOf(a) - rowOf(b));
  if (all.length) throw ServiceError.validation({ recipients: all.slice(0, 100) });
}

function rowFacts(row: RecipientRow) {
  return { row: row.row, name: row.name, email: row.email };
}
