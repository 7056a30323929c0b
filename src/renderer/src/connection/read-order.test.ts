import { describe, expect, it } from 'vitest';
import { mergeRead, ReadClock, type HeardSince } from './read-order';

interface Item {
  requestId: string;
  state: string;
  votes?: number;
}
const item = (requestId: string, state: string, votes?: number): Item =>
  votes === undefined ? { requestId, state } : { requestId, state, votes };
const heard = (entries: [string, Partial<Item> | null][]): HeardSince<Partial<Item>> =>
  new Map(entries);

describe('ReadClock', () => {
  it('says what events set while a read was out, and only after it went out', () => {
    const clock = new ReadClock<Partial<Item>>();
    const first = clock.begin();
    clock.touch('a', { state: 'done' });
    const second = clock.begin();
    clock.touch('b', null);
    expect(clock.end(second)).toEqual(heard([['b', null]]));
    expect(clock.end(first)).toEqual(
      heard([
        ['a', { state: 'done' }],
        ['b', null],
      ]),
    );
  });

  it('keeps the latest of each field an item was given', () => {
    const clock = new ReadClock<Partial<Item>>();
    const read = clock.begin();
    clock.touch('a', { state: 'running', votes: 1 });
    clock.touch('a', { votes: 2 });
    expect(clock.end(read)).toEqual(heard([['a', { state: 'running', votes: 2 }]]));
  });

  it('keeps nothing while no read is out, and forgets once the last read is back', () => {
    const clock = new ReadClock<Partial<Item>>();
    clock.touch('before', { state: 'x' });
    const read = clock.begin();
    expect(clock.end(read)).toEqual(heard([]));
    const again = clock.begin();
    clock.touch('x', { state: 'y' });
    clock.end(again);
    const later = clock.begin();
    expect(clock.end(later)).toEqual(heard([]));
  });

  it('counts two reads that went out at the same moment as two', () => {
    const clock = new ReadClock<Partial<Item>>();
    const one = clock.begin();
    const two = clock.begin();
    clock.touch('a', { state: '1' });
    expect(clock.end(one)).toEqual(heard([['a', { state: '1' }]]));
    clock.touch('b', { state: '2' });
    expect(clock.end(two)).toEqual(
      heard([
        ['a', { state: '1' }],
        ['b', { state: '2' }],
      ]),
    );
  });
});

describe('mergeRead', () => {
  it('takes the read as it is when nothing was heard while it was out', () => {
    const held = [item('a', 'old')];
    expect(mergeRead(held, [item('b', 'new')], heard([]))).toEqual([item('b', 'new')]);
  });

  it('lays what was heard over the read: removed stays gone, changed carries it, added is kept', () => {
    const held = [item('changed', 'done', 2), item('added', 'running')];
    const read = [item('changed', 'running', 1), item('removed', 'running'), item('plain', 'read')];
    const since = heard([
      ['changed', { state: 'done' }],
      ['added', { state: 'running' }],
      ['removed', null],
    ]);
    expect(mergeRead(held, read, since)).toEqual([
      // Only what the event said: the vote count is the read's.
      item('changed', 'done', 1),
      item('plain', 'read'),
      item('added', 'running'),
    ]);
  });

  it('corrects an item the page did not hold yet when the event came', () => {
    // A preview that ended before the first list came: the event found nothing to change.
    expect(mergeRead([], [item('a', 'running')], heard([['a', { state: 'done' }]]))).toEqual([
      item('a', 'done'),
    ]);
  });

  it('drops what the page held that the read no longer lists and no event kept', () => {
    const since = heard([
      ['other', { state: 'x' }],
      ['ended', null],
    ]);
    expect(mergeRead([item('gone', 'x'), item('ended', 'x')], [], since)).toEqual([]);
  });
});
