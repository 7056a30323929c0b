// The paths the rules judge of one request: a prefix of those it names, at most MAX_LOCATIONS of
// them and MAX_LOCATIONS_CHARS of their text. The rest are counted, and a request with any counted
// is asked whatever the mode or rule.
import { MAX_LOCATIONS, MAX_LOCATIONS_CHARS } from './limits';

export class JudgedPaths {
  private count = 0;
  private chars = 0;
  /** How many were offered and left out. */
  dropped = 0;

  /** Whether `path` is judged; once one is left out, every later one is too. */
  admit(path: string): boolean {
    if (
      this.dropped > 0 ||
      this.count >= MAX_LOCATIONS ||
      this.chars + path.length > MAX_LOCATIONS_CHARS
    ) {
      this.dropped += 1;
      return false;
    }
    this.count += 1;
    this.chars += path.length;
    return true;
  }
}
