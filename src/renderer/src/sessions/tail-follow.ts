/** Within this distance of the bottom, a list counts as scrolled to its newest line. */
export const NEAR_BOTTOM_PX = 40;

/**
 * How long after the reader's own input (a wheel turn, a key, a touch) a scroll is still theirs: a
 * wheel's smooth scroll goes on for a few frames after the event.
 */
export const READER_SCROLL_MS = 600;

/**
 * Whether a growing list keeps to its newest line. Only the reader stops it, by scrolling up, away
 * from the bottom; coming back to the bottom starts it again. The list's own movements fire scroll
 * events too (rows measured, rows added below, the oldest dropped above, the scroll to the newest),
 * and one that lands between the list growing and its scroll down looks exactly like a reader who
 * left: judged by position alone, a fast stream stopped being followed partway through.
 */
export class TailFollow {
  private follow = true;
  private inputAt = Number.NEGATIVE_INFINITY;
  private held = false;
  private top = 0;

  get following(): boolean {
    return this.follow;
  }

  /** The reader turned the wheel, pressed a key or touched the list, at `at` (ms). */
  input(at: number): void {
    this.inputAt = at;
  }

  /** The reader asked for the end (the End key): follow from now on. */
  toEnd(): void {
    this.follow = true;
  }

  /** The reader holds a pointer down on the list (dragging its scroll bar) or let go. */
  hold(down: boolean): void {
    this.held = down;
  }

  /**
   * The list scrolled, at `at` (ms, the clock `input` is given), to `top` px from its start and
   * `fromBottom` px above its end.
   */
  scrolled(at: number, top: number, fromBottom: number): void {
    const up = top < this.top;
    this.top = top;
    if (fromBottom < NEAR_BOTTOM_PX) this.follow = true;
    else if (up && (this.held || at - this.inputAt < READER_SCROLL_MS)) this.follow = false;
  }
}
