// Waiting for the network with a bound: closing the core must not hang on a collector that does.
export const LATE = Symbol('late');

/** The promise's value, or LATE once `ms` have passed (the promise goes on unwatched). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(LATE), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
