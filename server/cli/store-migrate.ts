import { parseArgs } from 'node:util';
import { KeyRing } from '../crypto/key-ring.js';
import { KEY_CHECK_SETTING, loadMasterKey, parseKey, sealKeyCheck, verifyKeyRing, WrongMasterKeyError } from '../crypto/master-key.js';
import { createLogger } from '../logger.js';
import { DataDirLockedError } from '../storage/embedded/data-dir-lock.js';
import { openStore } from '../storage/open-store.js';
import { hashStoredUrlTokens, loadUrlTokenIds, URL_TOKEN_KEY_SETTING } from '../pushes/url-token-id.js';
import type { LowdbStore } from '../storage/embedded/lowdb-store.js';
import { PostgresStore } from '../storage/postgres/postgres-store.js';
import { CorruptDataError } from '../storage/store.js';
import { blobIdsOf } from '../storage/segmented-file.js';
import { blobsWithoutPush } from '../storage/blobs-without-push.js';
import { copyVerified, type VerifiedCopyCounts } from '../storage/verified-blob-copy.js';
import { loadConfig } from '../config.js';
import { withObjectStorage } from '../storage/object-store/with-object-storage.js';
import { runFileMove } from './file-move.js';

/**
 * `npm run store:migrate -- --from ./data --to "$DATABASE_URL"`: copies an embedded store
 * (pushes with their audit trails and encrypted files, sliced uploads in progress, accounts, API tokens, sessions, the mail outbox) into
 * PostgreSQL. Nothing is decrypted: sealed values and file blobs are copied as they are, so the
 * instances on PostgreSQL must run with the same MASTER_KEY (the key check is copied too, and a
 * database already holding data under another key is refused; one that instances only started
 * on, schema and no data, is taken). Safe to run again: what is already there is skipped. It
 * refuses while a server holds the data directory.
 */
const USAGE = `Usage: npm run store:migrate -- --from <DATA_DIR> --to <postgres://user:password@host:5432/database>
  MASTER_KEY (and MASTER_KEY_OLD) as for the server; without MASTER_KEY the key file in DATA_DIR is used.
  Stop the server first. Safe to run again. Afterwards start every instance with DATABASE_URL and that MASTER_KEY.
   or: npm run store:migrate -- --files-to s3|store   (files into or out of object storage; see the README)`;

async function run(argv: string[]): Promise<number> {
  // Files between the store and object storage (FILE_STORAGE=s3): server/cli/file-move.ts.
  if (argv.some((a) => a === '--files-to' || a.startsWith('--files-to='))) return runFileMove(argv, (line) => process.stdout.write(line + '\n'));
  const { values } = parseArgs({ args: argv, options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !values.from || !values.to) {
    process.stdout.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  if (!/^postgres(ql)?:\/\//.test(values.to)) throw new UsageError('--to must be a PostgreSQL URL (postgres://…)');
  const logger = createLogger('error');
  const say = (line: string) => process.stdout.write(line + '\n');

  const { store: opened } = await openStore({ dataDir: values.from, database: undefined, purgeCompactionSeconds: 60 }, logger);
  const source = opened as LowdbStore;
  let target: PostgresStore | undefined;
  // With FILE_STORAGE=s3 the files are in the bucket under the same storage ids whichever store
  // holds the records: they stay there for the instances on PostgreSQL (same S3_* settings) and
  // are only checked to be there.
  const bucket = process.env.FILE_STORAGE === 's3' ? withObjectStorage(source, loadConfig({ ...process.env, DATA_DIR: values.from }).objectStorage!).blobs : undefined;
  try {
    const keys = new KeyRing(
      loadMasterKey(values.from, process.env.MASTER_KEY || undefined, logger),
      (process.env.MASTER_KEY_OLD ?? '').split(',').filter(Boolean).map((k, i) => parseKey(k, `MASTER_KEY_OLD[${i}]`)),
    );
    await verifyKeyRing(source, keys, values.from);
    // Pushes are copied under their storage ids (keyed hashes of their URL tokens): a source
    // written before tokens were hashed is brought up to date first, and the target gets the
    // same HMAC key, or every link would stop working.
    const { ids, sealedKey } = await loadUrlTokenIds(source, keys);
    await hashStoredUrlTokens(source, ids, keys);
    target = await PostgresStore.open({ url: values.to, poolSize: 4, logger });
    const held = Object.entries(await target.storedRecords()).filter(([, n]) => n > 0);
    if (held.length === 0) {
      // An instance that started on this database (it migrated the schema) sealed a key check
      // and a URL-token key of its own, under whatever MASTER_KEY it had; nothing is stored
      // under them, so they give way to this data's.
      await target.putSetting(KEY_CHECK_SETTING, sealKeyCheck(keys));
      await target.putSetting(URL_TOKEN_KEY_SETTING, sealedKey);
    }
    const holds = held.map(([kind, n]) => `${n} ${kind}`).join(', ');
    const otherData = `The target database already holds data (${holds}) of another installation`;
    try {
      await verifyKeyRing(target, keys, 'the target database');
    } catch (e) {
      if (e instanceof WrongMasterKeyError) throw new UsageError(`${otherData}, stored under another MASTER_KEY. Migrate into a database without data (one that instances have only started on is fine).`);
      throw e;
    }
    const { ids: targetIds } = await loadUrlTokenIds(target, keys, sealedKey);
    if (targetIds.of('probe') !== ids.of('probe')) {
      throw new UsageError(`${otherData}, with links under another URL-token key. Migrate into a database without data (one that instances have only started on is fine).`);
    }
    await hashStoredUrlTokens(target, targetIds, keys);

    const records = source.exportRecords();
    const counts = { users: 0, apiTokens: 0, sessions: 0, pushes: 0, audit: 0, files: 0, fileBytes: 0, skipped: 0, webhooks: 0, deliveries: 0, requests: 0 };
    for (const u of records.users) counts.users += Number(await target.importUser(u));
    for (const t of records.apiTokens) counts.apiTokens += Number(await target.importApiToken(t));
    for (const s of records.sessions) counts.sessions += Number(await target.importSession(s));
    for (const w of records.webhooks) counts.webhooks += Number(await target.importWebhook(w));
    for (const d of records.deliveries) counts.deliveries += Number(await target.importDelivery(d));
    for (const push of records.pushes) {
      if (await target.getPush(push.token)) {
        counts.skipped++;
        continue;
      }
      // Files first: a push row only appears with everything it refers to in place.
      for (const id of push.files.flatMap(blobIdsOf)) {
        if (bucket) {
          if ((await bucket.size(push.token, id)) === undefined) throw new Error(`push ${push.token.slice(0, 4)}…: the file ${id} is missing from the bucket ${bucket.settings.bucket}`);
          counts.files++;
          continue;
        }
        const size = await source.blobs.size(push.token, id);
        if (size === undefined) throw new Error(`push ${push.token.slice(0, 4)}…: the file ${id} is missing from ${values.from}/files`);
        counts.fileBytes += await target.blobs.write(push.token, id, await source.blobs.read(push.token, id, 0, size));
        counts.files++;
      }
      const trail = records.auditOf(push.token);
      if (await target.importPush(push, trail)) {
        counts.pushes++;
        counts.audit += trail.length;
      } else counts.skipped++;
    }
    // Sliced uploads in progress (their records and the slices stored so far, under storage ids
    // no push has yet): copied as stored and verified by SHA-256 like files, so that their
    // clients go on against the instances on PostgreSQL. What uploads given up left comes along
    // and is swept there as it would have been here.
    // (With FILE_STORAGE=s3 they are in the bucket already.)
    const pending = bucket ? new Map<string, string[]>() : await blobsWithoutPush(source.blobs, new Set(records.pushes.map((p) => p.token)));
    const uploads: VerifiedCopyCounts = { moved: 0, bytes: 0, alreadyThere: 0 };
    for (const [token, ids] of pending) for (const id of ids) await copyVerified(source.blobs, target.blobs, token, id, uploads);
    // After the pushes: an answered request refers to its answer's push.
    for (const r of records.requests) counts.requests += Number(await target.importRequest(r));
    // The admin log in its order (oldest first), and the invites.
    let adminLog = 0;
    let invites = 0;
    for (const e of records.adminLog) adminLog += Number(await target.importAdminLogEntry(e));
    for (const i of records.invites) invites += Number(await target.importInvite(i));
    // The mail outbox with each mail's state: a pending one is sent by the instances on
    // PostgreSQL, a sent or given-up one stays listed on its account's page. A lease held by the
    // stopped server is copied too; it runs out like any other.
    let mails = 0;
    for (const m of records.mails) mails += Number(await target.importMail(m));
    say(
      `Copied ${counts.pushes} pushes (${counts.audit} audit entries, ${counts.files} files, ${counts.fileBytes} bytes), ` +
        `${counts.users} accounts, ${counts.apiTokens} API tokens, ${counts.sessions} sessions, ${counts.webhooks} webhooks (${counts.deliveries} deliveries), ` +
        `${counts.requests} secret requests, ${adminLog} admin-log entries, ${invites} invites, ${mails} mails; ${counts.skipped} pushes were already there.`,
    );
    if (bucket) say(`Files stay in the bucket ${bucket.settings.bucket} (FILE_STORAGE=s3): ${counts.files} checked there, none copied; start the instances with the same S3_* settings.`);
    else say(
      `Copied ${uploads.moved} blobs (${uploads.bytes} bytes) of ${pending.size} storage ids without a push yet (sliced uploads in progress), each verified by SHA-256; ${uploads.alreadyThere} were already there.`,
    );

    // Verify: every record of the source is in the target as it was.
    const problems: string[] = [];
    for (const push of records.pushes) {
      const copied = await target.getPush(push.token);
      if (JSON.stringify(copied) !== JSON.stringify(push)) problems.push(`push ${push.token.slice(0, 4)}… differs`);
      else if ((await target.auditCount(push.token)) < records.auditOf(push.token).length) problems.push(`push ${push.token.slice(0, 4)}…: audit entries missing`);
      for (const id of bucket ? [] : push.files.flatMap(blobIdsOf)) {
        if ((await target.blobs.size(push.token, id)) !== (await source.blobs.size(push.token, id))) problems.push(`push ${push.token.slice(0, 4)}…: file ${id} differs`);
      }
    }
    for (const u of records.users) if (JSON.stringify(await target.getUserByEmail(u.email)) !== JSON.stringify(u)) problems.push(`account ${u.email} differs`);
    for (const t of records.apiTokens) if (!(await target.getApiTokenByHash(t.hash))) problems.push(`API token ${t.id} missing`);
    for (const r of records.requests) if (JSON.stringify(await target.getRequest(r.id)) !== JSON.stringify(r)) problems.push(`secret request ${r.id.slice(0, 5)}… differs`);
    for (const w of records.webhooks) if (!(await target.listWebhooks(w.userId)).some((x) => x.id === w.id)) problems.push(`webhook ${w.id} missing`);
    for (const m of records.mails) if (JSON.stringify(await target.getMail(m.id)) !== JSON.stringify(m)) problems.push(`mail ${m.id} differs`);
    if (problems.length) {
      say(`Verification FAILED (${problems.length}):\n  ${problems.slice(0, 20).join('\n  ')}`);
      return 1;
    }
    say(
      `Verified: all ${records.pushes.length} pushes (with audit trails and files), ${records.users.length} accounts and ${records.apiTokens.length} API tokens are in the database.`,
    );
    say('Start every instance with DATABASE_URL and the same MASTER_KEY this data was stored under.');
    return 0;
  } finally {
    await target?.close();
    bucket?.close();
    await source.close();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    const known = e instanceof UsageError || e instanceof DataDirLockedError || e instanceof CorruptDataError || e instanceof WrongMasterKeyError;
    process.stderr.write(`store:migrate: ${known ? e.message : (e as Error)?.stack ?? e}\n`);
    process.exit(1);
  },
);
