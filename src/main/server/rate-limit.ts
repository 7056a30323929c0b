/**
 * At most `limit` events per sliding window. Registration answers 429 past it: whoever holds the
 * bearer token must not be able to mint voters by the thousand.
 */
export class RateLimit {
  private readonly times: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one event; returns 0 when allowed, else the seconds until one would be. */
  take(): number {
    const now = this.now();
    while (this.times.length && this.times[0]! <= now - this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) {
      return Math.max(1, Math.ceil((this.times[0]! + this.windowMs - now) / 1000));
    }
    this.times.push(now);
    return 0;
  }
}
