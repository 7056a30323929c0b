// Every id Gatehouse makes (requests, sessions, prompts, grants, clients): a UUIDv7, its millisecond
// first, its 74 other bits random from the OS's CSPRNG, so that an agent cannot guess the id of a
// request it did not send (ids of one millisecond are in no set order; nothing sorts by id). uuid
// asks the OS for 16 bytes at each id, ~17 µs on a request's path with cold caches; one call here
// fills the bytes of 256 ids.
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const ID_BYTES = 16;
const pool = Buffer.alloc(ID_BYTES * 256);
let next = pool.length;

export function newId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const random = pool.subarray(next, (next += ID_BYTES));
  return v7({ random });
}
