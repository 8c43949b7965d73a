import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
