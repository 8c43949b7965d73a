// s3rver in a process of its own (its clock is the real one when a test fakes Date; it can be
// stopped and restarted like a real object store). Prints {"port": N} once it listens.
import { rmSync } from 'node:fs';
import S3rver from 's3rver';

const [directory, port = '0'] = process.argv.slice(2);
const server = new S3rver({ port: Number(port), address: '127.0.0.1', silent: true, directory, allowMismatchedSignatures: true });
const address = await server.run();
process.stdout.write(JSON.stringify({ port: address.port }) + '\n');
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
// The test process gone (its end of stdin closed, however it ended): the buckets go with it. A
// test's stop() kills this process instead (SIGKILL), which keeps them for its restart().
process.stdin.on('end', () => {
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
});
process.stdin.resume();
