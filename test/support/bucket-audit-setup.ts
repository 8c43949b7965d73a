import { afterAll } from 'vitest';
import { auditOpenServers, strayError } from './bucket-audit.js';

// After each test file of the server-s3 project (this setup file's afterAll runs after the
// file's own, which stop its servers and audit them then): the servers still running are
// audited too, so no file can leave an object without a push unnoticed.
afterAll(async () => {
  const strays = await auditOpenServers();
  if (strays.length) throw strayError('after this test file', strays);
});
