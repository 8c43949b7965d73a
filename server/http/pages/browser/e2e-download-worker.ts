// The recipient page's download worker, in Firefox: a dedicated worker (OPFS's synchronous
// access handles exist only there) that decrypts one file envelope into the download spool per
// message (shared/e2e/download-spool.ts).
import { answerDownloadSpoolRequests } from '../../../../shared/e2e/download-spool.js';

answerDownloadSpoolRequests();
