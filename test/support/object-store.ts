import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
// A cycle (server.ts signs with signWithRealClock from here): only functions cross it, used after both have loaded.
import { createUserWithToken, startServer, type TestServer } from './server.js';

/** Whether the suite runs with files in object storage (the vitest project `server-s3` sets it). */
export const testFileStorage: 'store' | 's3' = process.env.TEST_FILE_STORAGE === 's3' ? 's3' : 'store';

export interface TestObjectStore {
  endpoint: string;
  port: number;
  /** Where s3rver keeps the buckets. */
  directory: string;
  /** Kills the server (its data stays until `remove`): the object store down. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory. */
  restart(): Promise<void>;
  remove(): Promise<void>;
  /** A new empty bucket, and the environment that points a server at it. */
  bucket(): Promise<{ bucket: string; env: Record<string, string>; client: S3Client }>;
}

/** The real clock, taken before any test fakes Date (vi.useFakeTimers). */
const realNow = Date.now.bind(Date);

/**
 * Lets the AWS SDK sign `client`'s requests with the real time while a test fakes Date for the
 * server (moves it hours ahead): the object store, in its own process on the real clock, refuses
 * requests signed far from it (RequestTimeTooSkewed), and a streamed part cannot be re-signed
 * and sent again. Before each request, the SDK's clock offset (which it otherwise learns from
 * the store's answers) is set to the faked clock's distance from the real one. Test-only: the
 * server's own code keeps the one clock.
 */
export function signWithRealClock(client: S3Client): void {
  client.middlewareStack.add(
    (next) => (args) => {
      (client.config as { systemClockOffset?: number }).systemClockOffset = realNow() - Date.now();
      return next(args);
    },
    { step: 'build', name: 'signWithRealClock' },
  );
}

/**
 * s3rver accepts only these. They go into process.env, which every file a vitest worker runs
 * shares (isolate: false): any other S3 server a test file starts must use the same ones.
 */
export const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A real S3-protocol server (s3rver, from the npm registry: pure JavaScript, no binary to
 * download, runs on loopback with a directory for its data) on an ephemeral port, in a child
 * process: `stop` kills it (SIGKILL, the store gone at once), `restart` starts it again.
 */
export async function startObjectStore(): Promise<TestObjectStore> {
  // The server in this process finds its credentials where the SDK looks: the usual variables.
  process.env.AWS_ACCESS_KEY_ID ??= CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= CREDENTIALS.secretAccessKey;
  const directory = mkdtempSync(join(tmpdir(), 'secret-push-s3-'));
  let port = 0;
  let child: ChildProcess | undefined;
  const up = async () => {
    const script = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));
    child = spawn(process.execPath, [script, directory, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    port = (JSON.parse(line) as { port: number }).port;
    // The test process must not wait on it to exit (it is killed at exit).
    child.unref();
    for (const pipe of [child.stdin, child.stdout]) (pipe as unknown as { unref?: () => void }).unref?.();
  };
  const down = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    c.kill('SIGKILL');
    await once(c, 'exit');
  };
  process.once('exit', () => child?.kill('SIGKILL'));
  await up();
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    port,
    directory,
    stop: down,
    restart: up,
    async remove() {
      for (const c of clients) c.destroy();
      await down();
      rmSync(directory, { recursive: true, force: true });
    },
    async bucket() {
      const bucket = `b-${randomBytes(6).toString('hex')}`;
      const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
      clients.push(client);
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return {
        bucket,
        client,
        env: {
          FILE_STORAGE: 's3',
          S3_ENDPOINT: endpoint,
          S3_BUCKET: bucket,
          S3_FORCE_PATH_STYLE: 'true',
        },
      };
    },
  };
}

/** An object store with a server on a bucket of its own and an account on that server. */
export interface ServerOnObjectStore {
  s3: TestObjectStore;
  server: TestServer;
  /** The account's API token. */
  owner: string;
  /** Stops the server (auditing its bucket) and removes the object store. */
  stop(): Promise<void>;
}

/**
 * What the object-store outage tests start with: s3rver, a server with FILE_STORAGE=s3 on a new
 * bucket (plus `env`), and an account `email` with an API token.
 */
export async function serverOnObjectStore(email: string, env: Record<string, string> = {}): Promise<ServerOnObjectStore> {
  const s3 = await startObjectStore();
  let server: TestServer | undefined;
  try {
    server = await startServer({ ...(await s3.bucket()).env, ...env });
    const { token: owner } = await createUserWithToken(server, email);
    const started = server;
    return {
      s3,
      server,
      owner,
      async stop() {
        try {
          await started.stop();
        } finally {
          await s3.remove();
        }
      },
    };
  } catch (e) {
    await server?.stop().catch(() => undefined);
    await s3.remove();
    throw e;
  }
}
