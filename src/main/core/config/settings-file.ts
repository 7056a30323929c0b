import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { DEFAULT_RULES } from '../../../shared/rules';
import { Settings } from '../../../shared/settings';

export class SettingsError extends Error {
  override name = 'SettingsError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function settingsPath(home: string): string {
  return join(home, 'settings.json');
}

/** Renders zod issues as `path.to.field: message`, the form a person can fix by hand. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
    return `${where}: ${issue.message}`;
  });
}

/**
 * JSON.parse's words without the excerpt of the text some of its messages quote: the file may hold
 * an agent's API key, and the problem is shown, logged and audited.
 */
function notJson(error: unknown): string {
  const message = (error as Error).message.replace(
    /,\s*(?:\.\.\.)?"[\s\S]* is not valid JSON$/,
    '',
  );
  return `not JSON: ${message}`;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SettingsError(file, [notJson(error)]);
  }
}

export function parseSettings(text: string, file = 'settings.json'): Settings {
  const json = parseJson(text, file);
  const parsed = Settings.safeParse(json);
  if (!parsed.success) throw new SettingsError(file, describeIssues(parsed.error));
  return parsed.data;
}

/**
 * Reads $GATEHOUSE_HOME/settings.json. A missing file is created with the defaults (the default
 * rules among them, visible there) so a new user has one place to add agents; an invalid file stops
 * the start with every problem listed.
 */
export function loadSettings(home: string): Settings {
  const file = settingsPath(home);
  if (!existsSync(file)) {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const defaults = Settings.parse({ rules: [...DEFAULT_RULES] });
    writeFileSync(file, `${JSON.stringify(defaults, null, 2)}\n`, { mode: 0o600 });
    return defaults;
  }
  return parseSettings(readFileSync(file, 'utf8'), file);
}

/**
 * Changes settings.json in place: the file as the person wrote it (comments aside) is read, changed
 * and validated, then replaced atomically, so a crash never leaves half a file.
 */
export function updateSettingsFile(
  home: string,
  change: (json: Record<string, unknown>) => void,
): Settings {
  const file = settingsPath(home);
  // A file that does not read as JSON is the person's to fix: it is never written over.
  const json = existsSync(file)
    ? (parseJson(readFileSync(file, 'utf8'), file) as Record<string, unknown>)
    : {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new SettingsError(file, ['(top level): not an object']);
  }
  change(json);
  const parsed = Settings.safeParse(json);
  if (!parsed.success) throw new SettingsError(file, describeIssues(parsed.error));
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(json, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return parsed.data;
}
