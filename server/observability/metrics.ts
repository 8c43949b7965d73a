import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { pushKinds } from '../../shared/push-schema.js';

/**
 * What the server measures, in Prometheus's text format (prom-client). One registry per server
 * (not prom-client's global one): tests run many servers in one process. Labels are route
 * patterns, methods, statuses, kinds and store operations: never a token, path or client value.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'secretpush_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'secretpush_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly pushesCreated = new Counter({
    name: 'secretpush_pushes_created_total',
    help: 'Pushes created, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly pushesViewed = new Counter({
    name: 'secretpush_pushes_viewed_total',
    help: 'Counted views of pushes (the owner looking at their own push is not one), by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly pushesExpired = new Counter({
    name: 'secretpush_pushes_expired_total',
    help: 'Pushes that expired (views used up, days passed, or deleted), by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly passphraseFailures = new Counter({
    name: 'secretpush_passphrase_failures_total',
    help: 'Wrong passphrases given for pushes',
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'secretpush_rate_limit_rejections_total',
    help: 'Requests refused with 429 by the per-client rate limit',
    registers: [this.registry],
  });

  readonly storeDuration = new Histogram({
    name: 'secretpush_store_operation_duration_seconds',
    help: 'Time the store took per operation (embedded or PostgreSQL)',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });

  constructor() {
    // Process metrics (CPU, memory, file descriptors) and Node's: event-loop lag, GC, heap.
    collectDefaultMetrics({ register: this.registry });
    for (const kind of pushKinds) {
      // Present from the start at 0, so a rate() over the first push is right.
      this.pushesCreated.inc({ kind }, 0);
      this.pushesViewed.inc({ kind }, 0);
      this.pushesExpired.inc({ kind }, 0);
    }
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
