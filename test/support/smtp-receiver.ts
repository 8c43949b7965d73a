import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer } from './server.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  parsed: ParsedMail;
  raw: string;
}

/**
 * A real SMTP server on loopback for the tests: STARTTLS with a self-signed certificate made
 * here (openssl, no network), AUTH required, every accepted message parsed with mailparser.
 * `replies` scripts the answers to the next messages (`'4xx'`, `'5xx'`), then 250 again.
 */
export class SmtpReceiver {
  readonly received: ReceivedMail[] = [];
  /** The answers to the next DATA commands, in order; empty: accept. */
  readonly replies: ('4xx' | '5xx')[] = [];
  readonly user = 'mailer';
  readonly password = 'smtp-test-password';
  private server: SMTPServer | undefined;
  private waiters: (() => void)[] = [];
  port = 0;

  private constructor(
    private readonly dir: string,
    readonly caFile: string,
    private readonly key: string,
    private readonly cert: string,
  ) {}

  static async start(): Promise<SmtpReceiver> {
    const dir = mkdtempSync(join(tmpdir(), 'smtp-receiver-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const r = new SmtpReceiver(dir, join(dir, 'cert.pem'), readFileSync(join(dir, 'key.pem'), 'utf8'), readFileSync(join(dir, 'cert.pem'), 'utf8'));
    writeFileSync(join(dir, 'ca.pem'), r.cert);
    await r.up();
    return r;
  }

  /** What a server needs to send through this receiver, polling its outbox every 50 ms. */
  serverEnv(): Record<string, string> {
    return { SMTP_URL: this.url, SMTP_TLS_CA_FILE: this.caFile, MAIL_FROM: 'noreply@push.example.test', MAIL_POLL_SECONDS: '0.05' };
  }

  /** The SMTP_URL for the server: STARTTLS on the plain port (nodemailer upgrades when offered; requireTLS asks it to insist). */
  get url(): string {
    return `smtp://${this.user}:${this.password}@127.0.0.1:${this.port}/?requireTLS=true`;
  }

  /** Starts listening (again, on the same port after down()). */
  async up(): Promise<void> {
    const server = new SMTPServer({
      key: this.key,
      cert: this.cert,
      authMethods: ['PLAIN', 'LOGIN'],
      disableReverseLookup: true,
      logger: false,
      onAuth: (auth, session, cb) => {
        if (!session.secure) return cb(new Error('Must issue STARTTLS first'));
        if (auth.username === this.user && auth.password === this.password) return cb(null, { user: auth.username });
        cb(new Error('Invalid username or password'));
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const reply = this.replies.shift();
          if (reply === '4xx') return cb(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          if (reply === '5xx') return cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then((parsed) => {
            this.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              parsed,
              raw,
            });
            for (const w of this.waiters.splice(0)) w();
            cb();
          }, cb);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening: connections are refused until up(). */
  async down(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** Resolves once `n` messages (in all) have been received. */
  async waitFor(n: number, timeoutMs = 20_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} mails, received ${this.received.length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200).unref();
      });
    }
    return this.received.slice(0, n);
  }

  /** The mails received so far with `address` among their recipients, in arrival order. */
  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  /** Resolves with the n-th mail (1: the first) to `address` once it has arrived. */
  async mailTo(address: string, n = 1, timeoutMs = 20_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    while (this.mailsTo(address).length < n) {
      if (Date.now() > deadline) throw new Error(`expected mail ${n} to ${address}, received ${this.mailsTo(address).length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200).unref();
      });
    }
    return this.mailsTo(address)[n - 1]!;
  }

  async stop(): Promise<void> {
    await this.down();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A real SMTP receiver and a server sending through it, for the describe block this is called
 * in: started before its tests, stopped after them (shaped like serverAndChromium). `env` is the
 * server's settings beside the receiver's (SmtpReceiver.serverEnv) and the test defaults.
 */
export function smtpAndServer(env: Record<string, string> = {}): { readonly smtp: SmtpReceiver; readonly server: TestServer } {
  let smtp: SmtpReceiver | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    server = await startServer({ ...smtp.serverEnv(), ...env });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });
  return {
    get smtp() {
      if (!smtp) throw new Error('the SMTP receiver starts in beforeAll: read it inside a test or hook');
      return smtp;
    },
    get server() {
      if (!server) throw new Error('the server starts in beforeAll: read it inside a test or hook');
      return server;
    },
  };
}
