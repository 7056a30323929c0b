// OpenTelemetry export of the audit (opt-in: settings.telemetry.otlp). Started and closed with the
// core. The SDK and its exporters take longer to load than the rest of the core together, so they
// are loaded only where an export is configured, and after the core answers.
import type { Telemetry, TelemetryOptions } from './types';

export { ATTRIBUTE_VALUE_LIMIT, type Telemetry, type TelemetryOptions } from './types';

/**
 * null when the settings ask for no export. The export reads the committed audit from its cursor,
 * so nothing recorded before it is loaded is missed.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry | null> {
  const otlp = options.settings.otlp;
  if (!otlp) return null;
  const { startExport } = await import('./start');
  return startExport(options, otlp);
}
