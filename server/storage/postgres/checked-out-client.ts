import type pg from 'pg';

/**
 * A connection of its own from the pool (a transaction's, the migration lock's), with an
 * `error` listener for as long as it is checked out.
 *
 * The pool listens for errors only on its idle connections. A checked-out connection whose
 * server goes away while no statement is running on it (a restart's "terminating connection due
 * to administrator command", a crash, a killed backend, a socket reset) emits `error`, and an
 * `error` event with no listener ends the whole process. Here it only marks the connection
 * lost: the holder's next statement fails as unavailable (a 503 for the request), and the
 * connection is discarded when released instead of going back to the pool.
 */
export class CheckedOutClient {
  /** Why the connection was lost while checked out (undefined while it is sound). */
  lost: unknown;
  private released = false;
  private readonly onError = (e: unknown) => this.markLost(e);

  private constructor(readonly client: pg.PoolClient) {
    client.on('error', this.onError);
  }

  static async from(pool: pg.Pool): Promise<CheckedOutClient> {
    return new CheckedOutClient(await pool.connect());
  }

  /** Records that the connection cannot be trusted any more (the first reason is kept). */
  markLost(e: unknown): void {
    this.lost ??= e ?? new Error('connection lost');
  }

  /** Back to the pool, or discarded if it was lost; once. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.client.release(this.lost ? true : undefined);
    // Only now: the release has put the pool's own idle listener back on.
    this.client.removeListener('error', this.onError);
  }
}
