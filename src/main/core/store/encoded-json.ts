// An answer encoded as JSON on the thread that read it. A history page is a hundred objects: crossing
// to the core's thread as a structured clone, then checked and encoded again there, cost the core's
// thread more than the read cost the reader. Encoded where it is read, its bytes cross by transfer
// (no copy), and an HTTP response sends them as they are. Whoever wants the objects decodes them
// and checks them against the contract (commands/dispatch.ts does, for every transport but HTTP).

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `value` as UTF-8 JSON, in a buffer of its own (so it can be transferred to another thread). */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/**
 * JSON of a `T`, as the code that built the `T` encoded it. `decode` returns it untyped, for the
 * caller to check against the contract where objects are handed on (another transport, another room).
 */
export class EncodedJson<T> {
  /** Never set: it carries the type of what the bytes hold. */
  declare readonly holds?: T;

  constructor(readonly bytes: Uint8Array) {}

  decode(): unknown {
    return JSON.parse(decoder.decode(this.bytes));
  }
}
