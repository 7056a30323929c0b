/**
 * A read that runs one at a time: asked again while it runs, it runs once more afterwards (a burst
 * of change events costs two reads, never one per event). `alive` stops it after unmount.
 */
export function serialRead(read: () => Promise<unknown>, alive: () => boolean): () => void {
  let reading = false;
  let again = false;
  const run = (): void => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void read().finally(() => {
      reading = false;
      if (again && alive()) {
        again = false;
        run();
      }
    });
  };
  return run;
}
