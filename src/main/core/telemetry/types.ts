// What the core knows of the export without loading it (index.ts loads it only when configured).
import type { TelemetrySettings } from '../../../shared/settings';
import type { Store } from '../store';

/** Longer attribute values (a huge title or command, diff contents) are cut to this many characters. */
export const ATTRIBUTE_VALUE_LIMIT = 16_384;

export interface Telemetry {
  /** The last audit seq the collector took (tests, diagnostics). */
  readonly exportedSeq: number;
  /** Sends what is left (bounded in time) and stops. */
  close(): Promise<void>;
}

export interface TelemetryOptions {
  settings: TelemetrySettings;
  store: Pick<Store, 'feed'>;
  /** Requests waiting for a person now. */
  pending: () => number;
}
