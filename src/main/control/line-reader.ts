// Newline-delimited framing with a bound: bytes are cut into lines at "\n", and a line that grows
// past the limit before its newline arrives is reported instead of being buffered without end.

export type LineEvent = { type: 'line'; line: string } | { type: 'too_large'; limit: number };

export class LineReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed = false;

  constructor(private readonly maxLineBytes: number) {}

  /** The complete lines in `chunk` (with what came before it); after `too_large`, nothing more. */
  push(chunk: Buffer): LineEvent[] {
    if (this.failed) return [];
    const events: LineEvent[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, end);
      if (this.buffered + part.length > this.maxLineBytes) return this.fail(events);
      const line = this.buffered === 0 ? part : Buffer.concat([...this.chunks, part]);
      this.chunks = [];
      this.buffered = 0;
      events.push({ type: 'line', line: line.toString('utf8').replace(/\r$/, '') });
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (this.buffered + rest.length > this.maxLineBytes) return this.fail(events);
    if (rest.length > 0) {
      this.chunks.push(rest);
      this.buffered += rest.length;
    }
    return events;
  }

  private fail(events: LineEvent[]): LineEvent[] {
    this.failed = true;
    this.chunks = [];
    this.buffered = 0;
    events.push({ type: 'too_large', limit: this.maxLineBytes });
    return events;
  }
}
