// The create page's spool worker: a dedicated worker, because OPFS's synchronous access handles
// (which write straight to the file) exist only there. It encrypts one file into the upload spool
// per message and answers with the envelope's size; the page reads the file back from the spool
// to upload it (shared/e2e/spool-worker-messages.ts, shared with the extension's spool worker).
import { answerSpoolRequests } from '../../../../shared/e2e/spool-worker-messages.js';

answerSpoolRequests();
