import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { answerSpoolRequests } from '../../shared/e2e/spool-worker-messages';

// The file host's spool worker (/spool-worker.js): a dedicated worker, because OPFS's
// synchronous access handles, which write the envelope straight to disk, exist only there.
export default defineUnlistedScript(() => answerSpoolRequests());
