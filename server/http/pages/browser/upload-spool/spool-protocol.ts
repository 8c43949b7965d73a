// Where the create page finds its spool worker (e2e-spool-worker.ts); what they say to each
// other is shared with the extension (shared/e2e/spool-protocol.ts).
export const SPOOL_WORKER_SCRIPT = '/assets/e2e-spool-worker.js';
