import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId } from './ids';

/** The id's 62 bits that are random alone (its variant's 2 bits and the time before them left out). */
const randomTail = (id: string): string => id.replaceAll('-', '').slice(17);

describe('newId', () => {
  it('makes UUIDv7s with the time they were made in front', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    const msecs = parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(after);
  });

  it('never reuses random bits, across the refills of its pool', () => {
    // 1,000 ids draw on the pool four times over: a refill missed would repeat whole tails.
    const tails = Array.from({ length: 1000 }, () => randomTail(newId()));
    expect(new Set(tails).size).toBe(tails.length);
  });
});
