/**
 * What a sliced upload's finish costs (issue 33): a SIZE_MIB (default 64) end-to-end envelope is
 * sent in 8 MiB slices to an in-process server, then finished; the bytes the server's blob store
 * writes during the finish and the finish's wall time are printed. Files in the data dir by
 * default; TEST_FILE_STORAGE=s3 puts them in s3rver, TEST_STORE=postgres (with DATABASE_URL
 * reachable as the test harness sets it up) in PostgreSQL.
 *
 *   node --import tsx test/manual/sliced-finish.ts [SIZE_MIB]
 */
import { encryptBytes } from '../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../shared/e2e/push-content.js';
import { createUserWithToken, startServer } from '../support/server.js';

const MiB = 1_048_576;
const SLICE = 8 * MiB;
const size = Math.round(Number(process.argv[2] ?? 64) * MiB);

const server = await startServer({ LOG_LEVEL: 'error', MAX_FILE_BYTES: String(2 * size) });
try {
  const { token } = await createUserWithToken(server, 'finish@example.com');
  const key = newPushKey();
  const envelope = Buffer.from(await encryptBytes(key, 'file', new Uint8Array(size).map((_, i) => i % 251)));
  const push = { kind: 'file', end_to_end: true, payload: await encryptManifestPayload(key, { message: '', files: [{ name: 'f.bin', type: '', size }] }) };
  const call = (method: string, path: string, body?: BodyInit, type = 'application/json') =>
    fetch(`${server.url}${path}`, { method, body, headers: { authorization: `Bearer ${token}`, 'content-type': type } });
  const started = (await (await call('POST', '/api/v2/uploads', JSON.stringify({ push, files: [{ size: envelope.length }] }))).json()) as { upload: string };
  for (let at = 0; at < envelope.length; at += SLICE) {
    const res = await call('PUT', `/api/v2/uploads/${started.upload}/files/0?offset=${at}`, envelope.subarray(at, at + SLICE), 'application/octet-stream');
    if (res.status !== 200) throw new Error(`slice at ${at}: ${res.status} ${await res.text()}`);
  }
  const blobs = server.server.store.blobs;
  const write = blobs.write.bind(blobs);
  let written = 0;
  blobs.write = async (...args) => {
    const n = await write(...args);
    written += n;
    return n;
  };
  const t0 = performance.now();
  const finished = await call('POST', `/api/v2/uploads/${started.upload}/finish`);
  const ms = performance.now() - t0;
  blobs.write = write;
  if (finished.status !== 201) throw new Error(`finish: ${finished.status} ${await finished.text()}`);
  console.log(`envelope ${envelope.length} bytes; finish ${ms.toFixed(0)} ms; bytes written by the blob store during the finish: ${written}`);
} finally {
  await server.stop();
}
