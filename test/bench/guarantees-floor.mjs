// A second reference for `npm run bench`: a bare node:http server that does for create and
// retrieve only what our guarantees demand, and nothing else — no framework, no validation, no
// audit, no limits, no accounts. A push's payload is sealed with AES-256-GCM under a fresh IV
// (encryption at rest), and a create or a view is answered only once it is durable: with
// DATABASE_URL a single-statement INSERT / UPDATE … RETURNING (PostgreSQL commits, and so
// flushes its WAL, before answering); without, a line in a journal file whose group-committed
// fdatasync has returned (as the embedded store does). Its throughput is the ceiling these
// guarantees leave on this machine, so the push server's figures can be read against it.
// `GET /api/v2/version` repeats the push server's own answer (FLOOR_VERSION_ANSWER: its headers,
// the security headers among them, and body) with a fresh request id, as ours sends one; every
// other answer carries the same security headers and a request id.
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';

const key = randomBytes(32);

function seal(text) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  return Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
}

function unseal(sealed) {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8');
}

/** The embedded store's durability: lines appended, one fdatasync per batch, answers after it. */
async function journalStore(dir) {
  const file = await open(join(dir, 'floor-journal.jsonl'), 'a');
  const pushes = new Map();
  let waiting = [];
  let flushing = false;
  async function flush() {
    flushing = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      await file.write(batch.map((w) => w.line).join(''));
      await file.datasync();
      for (const w of batch) w.resolve();
    }
    flushing = false;
  }
  const durable = (entry) =>
    new Promise((resolve) => {
      waiting.push({ line: `${JSON.stringify(entry)}\n`, resolve });
      if (!flushing) void flush();
    });
  return {
    async insert(token, sealed, views) {
      pushes.set(token, { sealed, views, viewed: 0 });
      await durable({ token, sealed: sealed.toString('base64'), views });
    },
    async view(token) {
      const push = pushes.get(token);
      if (!push) return undefined;
      push.viewed += 1;
      await durable({ token, viewed: push.viewed });
      return push;
    },
  };
}

async function postgresStore(url) {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  await pool.query('CREATE TABLE IF NOT EXISTS floor_pushes (token text PRIMARY KEY, sealed bytea NOT NULL, views int NOT NULL, viewed int NOT NULL DEFAULT 0)');
  return {
    async insert(token, sealed, views) {
      await pool.query('INSERT INTO floor_pushes (token, sealed, views) VALUES ($1, $2, $3)', [token, sealed, views]);
    },
    async view(token) {
      const { rows } = await pool.query('UPDATE floor_pushes SET viewed = viewed + 1 WHERE token = $1 RETURNING sealed, views, viewed', [token]);
      return rows[0];
    },
  };
}

const store = process.env.DATABASE_URL ? await postgresStore(process.env.DATABASE_URL) : await journalStore(process.env.DATA_DIR ?? '.');

const versionAnswer = process.env.FLOOR_VERSION_ANSWER ? JSON.parse(process.env.FLOOR_VERSION_ANSWER) : { headers: [['content-type', 'application/json']], body: '{}' };
/** Every answer carries the security headers (a guarantee too): the push server's, as version sent them. */
const securityHeaders = versionAnswer.headers.filter(([name]) => name !== 'content-type' && name !== 'x-request-id');

function answer(res, status, value) {
  const body = JSON.stringify(value);
  for (const [name, value] of securityHeaders) res.setHeader(name, value);
  res.setHeader('x-request-id', randomUUID());
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.url === '/api/v2/version') {
    for (const [name, value] of versionAnswer.headers) res.setHeader(name, name === 'x-request-id' ? randomUUID() : value);
    res.end(versionAnswer.body);
    return;
  }
  const fail = () => answer(res, 500, { error: 'failed' });
  if (req.method === 'POST') {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      const { push } = JSON.parse(Buffer.concat(parts).toString('utf8'));
      const token = randomBytes(16).toString('base64url');
      store.insert(token, seal(push.payload), push.expire_after_views).then(
        () => answer(res, 201, { url_token: token, expire_after_views: push.expire_after_views, expired: false, created_at: new Date().toISOString() }),
        fail,
      );
    });
    return;
  }
  const token = req.url.slice(req.url.lastIndexOf('/') + 1).replace(/\.json$/, '');
  store.view(token).then((push) => {
    if (!push) return answer(res, 404, { error: 'not found' });
    answer(res, 200, { payload: unseal(push.sealed), views_remaining: push.views - push.viewed, expired: false });
  }, fail);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
