// Writes resources/settings.schema.json from the zod schema (`npm run settings:schema`), so editors
// can validate and complete settings.json. A unit test fails when the file is out of date.
import { writeFileSync } from 'node:fs';
import { settingsJsonSchema } from '../src/main/core/config/json-schema';

writeFileSync(
  'resources/settings.schema.json',
  `${JSON.stringify(settingsJsonSchema(), null, 2)}\n`,
);
console.log('resources/settings.schema.json written');
