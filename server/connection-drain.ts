import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The HTTP side of a graceful shutdown behind a proxy: stop accepting connections without
 * losing a request a client (a proxy reusing a kept-alive connection) may be sending right now.
 *
 * A server cannot close an idle kept-alive connection without that race: the proxy may have
 * picked the connection and written its next request while the close is on its way, and a proxy
 * does not resend a POST that failed after it was sent (nginx answers 502). So once draining,
 * no connection is closed from this side between requests; instead every answer from now on
 * carries `Connection: close` and the connection ends right after it, which the client sees
 * before it can reuse it. A connection nobody sends on again closes by itself: the client's
 * idle timeout, or this server's keep-alive timeout (the same race as in normal operation; a
 * proxy's upstream keep-alive timeout below it avoids that, see the README).
 */
export class ConnectionDrain {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();
  /** When a connection was last accepted, or an answer began or ended (performance.now()). */
  private lastActivity = 0;
  /** Open connections, with when each was accepted. */
  private readonly open = new Map<Socket, number>();

  constructor(private readonly server: Server) {
    // First among the 'request' listeners: the app's listener may write a cached answer
    // synchronously, and the keep-alive decision must be made before the head is written.
    server.prependListener('request', (_req, res) => this.track(res));
    server.on('connection', (socket: Socket) => {
      this.lastActivity = performance.now();
      this.open.set(socket, this.lastActivity);
      socket.once('close', () => this.open.delete(socket));
    });
  }

  private track(res: ServerResponse) {
    this.lastActivity = performance.now();
    if (this.draining) res.shouldKeepAlive = false;
    this.inFlight.add(res);
    // One shared listener, no closure or `once` wrapper per request (every request pays this):
    // a ServerResponse emits 'close' exactly once, after 'finish' or when its connection is
    // cut first, and calls the listener with itself as `this`.
    res.on('close', this.answered);
  }

  private readonly answered = ((drain: ConnectionDrain) =>
    function (this: ServerResponse) {
      drain.lastActivity = performance.now();
      drain.inFlight.delete(this);
    })(this);

  /** Connections with an answer still in progress. */
  private busyConnections(): number {
    return new Set([...this.inFlight].map((res) => res.req.socket)).size;
  }

  /**
   * Stops accepting connections and resolves once every open one has closed: answers in
   * progress finish (and close their connections), and after `graceMs` whatever is left is cut.
   * Resolves with the number of connections cut while an answer was still in progress.
   */
  async drain(graceMs: number): Promise<number> {
    this.draining = true;
    // An answer whose head already went out promising keep-alive leaves its connection open:
    // closing it right after would race the client's next request on it, as above.
    for (const res of this.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    if (graceMs > 0) await this.quietMoment(Math.min(graceMs, 2_000));
    return new Promise((resolve) => {
      let cut = 0;
      const silent = setInterval(() => this.closeSilent(), 250);
      const deadline = setTimeout(() => {
        cut = this.busyConnections();
        this.server.closeAllConnections();
      }, graceMs);
      // http.Server#close() (Node ≥ 19) first destroys every connection it counts as idle, the
      // kept-alive ones a proxy may be writing its next request to at that moment. That step is
      // skipped here: only the listener closes (and Node's periodic timeout check stops, which
      // is why silent connections are closed by closeSilent).
      const { closeIdleConnections } = this.server;
      this.server.closeIdleConnections = () => {};
      try {
        this.server.close(() => {
          clearInterval(silent);
          clearTimeout(deadline);
          resolve(cut);
        });
      } finally {
        this.server.closeIdleConnections = closeIdleConnections;
      }
      if (graceMs <= 0) this.server.closeAllConnections();
    });
  }

  /**
   * A connection that has not sent a byte in the second since it was accepted is not a proxy
   * about to send a request (a proxy writes its request as soon as it is connected); it is a
   * browser's preconnect or an idle client, and would otherwise hold the shutdown until the
   * timeout (Node counts such a connection as busy, under its headers timeout, whose check
   * stops with the listener). Kept-alive connections that carried requests are left alone.
   */
  private closeSilent(silentMs = 1_000) {
    const now = performance.now();
    for (const [socket, acceptedAt] of this.open) {
      if (socket.bytesRead === 0 && now - acceptedAt >= silentMs) socket.destroy();
    }
  }

  /**
   * Closing the listener resets every connection still waiting in the kernel's accept queue,
   * and a proxy has already sent its request on it (nginx: 502, for a POST without retry). The
   * queue fills only while the event loop is busy (an idle loop accepts a connection within
   * microseconds), so the listener is closed at a moment when nothing was accepted, begun or
   * answered for a few milliseconds: then the queue is empty but for what arrives in the
   * microseconds until the close. Under constant load such moments come often; after `maxMs`
   * without one it closes anyway.
   */
  private async quietMoment(maxMs: number, quietMs = 5) {
    const until = performance.now() + maxMs;
    while (performance.now() - this.lastActivity < quietMs && performance.now() < until) {
      await new Promise((r) => setTimeout(r, 1));
    }
  }
}
