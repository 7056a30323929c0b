import { z } from 'zod';
import { Settings } from '../../../shared/settings';

/** The JSON schema of settings.json, derived from the one zod schema that validates it at start. */
export function settingsJsonSchema(): Record<string, unknown> {
  return {
    title: 'Gatehouse settings',
    ...z.toJSONSchema(Settings, { io: 'input' }),
  };
}
