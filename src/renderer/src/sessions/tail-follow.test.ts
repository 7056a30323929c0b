import { describe, expect, it } from 'vitest';
import { NEAR_BOTTOM_PX, READER_SCROLL_MS, TailFollow } from './tail-follow';

const FAR = NEAR_BOTTOM_PX * 100;

describe('a transcript keeps to its newest line until the reader scrolls away', () => {
  it('scrolls the list makes itself never stop it, however far from the bottom they land', () => {
    const tail = new TailFollow();
    // Rows added below before the scroll down, the oldest dropped above (the top moves up), rows
    // measured.
    for (let at = 0, top = 50_000; at < 10_000; at += 16, top += at % 3 === 0 ? -500 : 100) {
      tail.scrolled(at, top, at % 3 === 0 ? FAR : 0);
    }
    expect(tail.following).toBe(true);
  });

  it('the reader scrolling up stops it; scrolls that follow without input do not start it again', () => {
    const tail = new TailFollow();
    tail.scrolled(900, 50_000, 0);
    tail.input(1_000);
    tail.scrolled(1_020, 49_000, FAR);
    expect(tail.following).toBe(false);
    tail.scrolled(1_020 + READER_SCROLL_MS * 10, 49_500, FAR);
    expect(tail.following).toBe(false);
  });

  it('a scroll up long after the reader last touched anything is the list, not the reader', () => {
    const tail = new TailFollow();
    tail.scrolled(900, 50_000, 0);
    tail.input(1_000);
    tail.scrolled(1_000 + READER_SCROLL_MS, 49_000, FAR);
    expect(tail.following).toBe(true);
  });

  it('the reader going to the end while rows are measured keeps it: only a scroll up stops it', () => {
    const tail = new TailFollow();
    tail.scrolled(0, 50_000, 0);
    tail.input(0);
    tail.scrolled(10, 1_000, FAR);
    expect(tail.following).toBe(false);
    tail.input(5_000);
    tail.scrolled(5_010, 90_000, 0);
    // The last rows turn out taller than estimated: the end moves away, the reader did not.
    tail.scrolled(5_030, 90_000, FAR);
    expect(tail.following).toBe(true);
  });

  it('dragging the scroll bar up stops it for as long as the pointer is held, input or not', () => {
    const tail = new TailFollow();
    tail.scrolled(0, 50_000, 0);
    tail.hold(true);
    tail.scrolled(50_000, 40_000, FAR);
    expect(tail.following).toBe(false);
    tail.hold(false);
    tail.scrolled(60_000, 60_000, NEAR_BOTTOM_PX - 1);
    expect(tail.following).toBe(true);
  });

  it('coming back to the bottom, by any scroll, follows again', () => {
    const tail = new TailFollow();
    tail.scrolled(0, 50_000, 0);
    tail.input(0);
    tail.scrolled(10, 100, FAR);
    expect(tail.following).toBe(false);
    tail.scrolled(5_000, 60_000, NEAR_BOTTOM_PX - 1);
    expect(tail.following).toBe(true);
  });
});
