// The agent's stdout as a web stream for the ACP SDK, closed exactly once.
import type { Readable } from 'node:stream';

/**
 * The agent's stdout as the SDK reads it, and nothing more: whoever holds the stream pauses it
 * (`holdOutput`) and the agent waits in its write. (Readable.toWeb resumes a paused stream whenever
 * its reader asks for more, and the SDK's reader always does.)
 */
export function outputOf(stdout: Readable): ReadableStream<Uint8Array> {
  // Closed once: by the agent's end of output, or by the reader giving up (the connection closed
  // on a failed start); the controller throws on a second close, which would end the whole core.
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const end = (error?: Error) => {
        if (!open) return;
        open = false;
        if (error) controller.error(error);
        else controller.close();
      };
      stdout.on('data', (chunk: Buffer) => {
        if (open) controller.enqueue(chunk);
      });
      stdout.once('end', () => end());
      stdout.once('close', () => end());
      stdout.once('error', (error) => end(error));
    },
    cancel() {
      open = false;
      stdout.destroy();
    },
  });
}
