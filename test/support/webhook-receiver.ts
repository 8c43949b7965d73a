import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface ReceivedDelivery {
  id: string;
  headers: Record<string, string>;
  body: string;
  /** The status the receiver answered. */
  status: number;
  /** Whether the signature verified with the endpoint's secret (checked once it is known). */
  verified?: boolean;
}

/**
 * A webhook endpoint on loopback, as a receiver would write one: it verifies each delivery with
 * the official Standard Webhooks library (an implementation independent of the server's), and
 * answers from a script: `statusFor(id, attempt)` (attempt counts from 1 per webhook-id).
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  secret: string | undefined;
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  private readonly server: Server;

  private constructor(private statusFor: (id: string, attempt: number) => number) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const id = headers['webhook-id'] ?? '';
        const attempt = this.received.filter((r) => r.id === id).length + 1;
        const status = this.statusFor(id, attempt);
        const delivery: ReceivedDelivery = { id, headers, body: Buffer.concat(chunks).toString('utf8'), status };
        if (this.secret) delivery.verified = this.verifies(delivery);
        this.received.push(delivery);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try again');
        this.wake();
      });
    });
  }

  static async start(statusFor: (id: string, attempt: number) => number = () => 200): Promise<WebhookReceiver> {
    const r = new WebhookReceiver(statusFor);
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  verifies(d: ReceivedDelivery): boolean {
    try {
      new Webhook(this.secret!).verify(d.body, d.headers);
      return true;
    } catch {
      return false;
    }
  }

  /** Accepted deliveries, one per webhook-id (what a de-duplicating receiver keeps). */
  unique(): ReceivedDelivery[] {
    const seen = new Map<string, ReceivedDelivery>();
    for (const d of this.received) if (d.status === 200 && !seen.has(d.id)) seen.set(d.id, d);
    return [...seen.values()];
  }

  /** Resolves once `test` holds (checked after every request). */
  until(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private wake() {
    this.waiters = this.waiters.filter((w) => (w.test() ? (w.resolve(), false) : true));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** How a SlowReceiver answers. */
export type SlowAnswer =
  /** The status line and a header one byte per tick, never finished: no status ever arrives. */
  | 'trickle-status'
  /** A 200 with its headers at once, then its body one byte per tick, never finished. */
  | 'trickle-body'
  /** A plain 200 at once. */
  | 'answer';

/** One request a SlowReceiver got. */
export interface SlowRequest {
  id: string;
  answer: SlowAnswer;
  /** The sender closed the connection (gave up or was stopped) while the receiver was still answering. */
  closedBySender: boolean;
}

/**
 * A webhook endpoint on loopback that answers slowly, written on raw TCP so that it can send
 * an answer byte by byte: each byte keeps the connection busy, so a timeout that only counts
 * idle time never fires. It trickles until the sender closes the connection or the receiver is
 * closed. `answer` may be changed between requests.
 */
export class SlowReceiver {
  readonly requests: SlowRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  private readonly server: NetServer;

  private constructor(
    public answer: SlowAnswer,
    private readonly tickMs: number,
  ) {
    this.server = createNetServer((socket) => {
      this.sockets.add(socket);
      let received = Buffer.alloc(0);
      let request: SlowRequest | undefined;
      let ticker: NodeJS.Timeout | undefined;
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(ticker);
        this.sockets.delete(socket);
        if (request && request.answer !== 'answer') request.closedBySender = true;
        this.wake();
      });
      socket.on('data', (chunk: Buffer) => {
        if (request) return;
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < end + 4 + length) return;
        request = { id: /\r\nwebhook-id: *([^\r]*)/i.exec(head)?.[1] ?? '', answer: this.answer, closedBySender: false };
        this.requests.push(request);
        this.wake();
        if (request.answer === 'answer') {
          socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
          return;
        }
        const trickled =
          request.answer === 'trickle-status' ? 'HTTP/1.1 200 OK\r\nX-Slow: ' : 'HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n';
        let sent = request.answer === 'trickle-status' ? 0 : trickled.length;
        if (sent) socket.write(trickled);
        ticker = setInterval(() => socket.write(sent < trickled.length ? trickled[sent++]! : 'x'), this.tickMs);
      });
    });
  }

  static async start(answer: SlowAnswer, tickMs = 100): Promise<SlowReceiver> {
    const r = new SlowReceiver(answer, tickMs);
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Connections still open (a trickling answer keeps its connection open). */
  get open(): number {
    return this.sockets.size;
  }

  /** Resolves once `test` holds (checked after every request and every closed connection). */
  until(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private wake() {
    this.waiters = this.waiters.filter((w) => (w.test() ? (w.resolve(), false) : true));
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
