/**
 * Passphrase attempts per push in a sliding one-minute window (the reference allows 5), so a
 * link cannot be brute-forced even from many addresses.
 */
export class PassphraseAttempts {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an attempt; false when the push has had too many in the last minute. */
  tryAttempt(token: string): boolean {
    const t = this.now();
    const recent = (this.attempts.get(token) ?? []).filter((at) => t - at < 60_000);
    if (recent.length >= this.perMinute) {
      this.attempts.set(token, recent);
      return false;
    }
    recent.push(t);
    this.attempts.set(token, recent);
    return true;
  }

  /** Forgets windows that have passed (called by the sweeper). */
  prune() {
    const t = this.now();
    for (const [token, list] of this.attempts) if (list.every((at) => t - at >= 60_000)) this.attempts.delete(token);
  }
}
