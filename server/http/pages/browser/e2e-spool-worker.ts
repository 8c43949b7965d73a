// The create page's spool worker: a dedicated worker, because OPFS's synchronous access handles
// (which write straight to the file) exist only there. It encrypts one file into the upload spool
// per message (shared/e2e/upload-spool.ts) and answers with the envelope's size; the page reads
// the file back from the spool to upload it. The key is zeroed once the file is done.
import { writeSpooledEnvelope } from '../../../../shared/e2e/upload-spool.js';
import type { SpoolAnswer, SpoolRequest } from './upload-spool/spool-protocol.js';

addEventListener('message', async (event: MessageEvent<SpoolRequest>) => {
  const { key, file, options, name } = event.data;
  let answer: SpoolAnswer;
  try {
    answer = { ok: true, bytes: await writeSpooledEnvelope(key, file, options, name) };
  } catch {
    answer = { ok: false };
  } finally {
    key.fill(0);
  }
  postMessage(answer);
});
