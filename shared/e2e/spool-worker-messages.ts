// The spool worker's side (run in a dedicated worker, where OPFS's synchronous access handles
// exist): it encrypts one file into the upload spool per message (upload-spool.ts) and answers
// with the envelope's size. The key is zeroed once the file is done.
import { writeSpooledEnvelope } from './upload-spool.js';
import type { SpoolAnswer, SpoolRequest } from './spool-protocol.js';

export function answerSpoolRequests(): void {
  addEventListener('message', async (event: Event) => {
    const { key, file, options, name } = (event as MessageEvent<SpoolRequest>).data;
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
}
