// Writes made in one turn of the event loop leave together: the stream is corked at the first and
// uncorked once the turn's callbacks and the promises they settled have run (setImmediate), so a
// burst of lines costs one system call (writev) and one wake-up of the reader, not one per line.
import type { Writable } from 'node:stream';

export function writesPerTick(stream: Writable): (data: string | Buffer) => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  return (data) => {
    if (stream.destroyed || stream.writableEnded) return;
    if (!corked) {
      corked = true;
      stream.cork();
      setImmediate(uncork);
    }
    stream.write(data);
  };
}
