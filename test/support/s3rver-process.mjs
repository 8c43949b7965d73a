// s3rver in a process of its own (its clock is the real one when a test fakes Date; it can be
// stopped and restarted like a real object store). Prints {"port": N} once it listens.
import S3rver from 's3rver';

const [directory, port = '0'] = process.argv.slice(2);
const server = new S3rver({ port: Number(port), address: '127.0.0.1', silent: true, directory, allowMismatchedSignatures: true });
const address = await server.run();
process.stdout.write(JSON.stringify({ port: address.port }) + '\n');
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
