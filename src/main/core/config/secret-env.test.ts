import { describe, expect, it } from 'vitest';
import { Settings } from '../../../shared/settings';
import { HIDDEN_VALUE, hideSecrets, keepHiddenSecrets } from './secret-env';

const settings = (env: Record<string, string>) =>
  Settings.parse({ agents: { a: { command: 'a', env } } });

describe('secret values of agents’ environments', () => {
  it('are hidden by name; other values are shown', () => {
    const shown = hideSecrets(
      settings({
        GEMINI_API_KEY: 'k',
        GH_TOKEN: 't',
        DB_PASSWORD: 'p',
        GOOGLE_GEMINI_BASE_URL: 'u',
      }),
    );
    expect(shown.agents['a']!.env).toEqual({
      GEMINI_API_KEY: HIDDEN_VALUE,
      GH_TOKEN: HIDDEN_VALUE,
      DB_PASSWORD: HIDDEN_VALUE,
      GOOGLE_GEMINI_BASE_URL: 'u',
    });
  });

  it('sent back as placeholders keep the saved values; a new value replaces it', () => {
    const saved = settings({ GEMINI_API_KEY: 'k', OTHER_TOKEN: 'o' });
    const next = keepHiddenSecrets(
      settings({ GEMINI_API_KEY: HIDDEN_VALUE, OTHER_TOKEN: 'new' }),
      saved,
    );
    expect(next.agents['a']!.env).toEqual({ GEMINI_API_KEY: 'k', OTHER_TOKEN: 'new' });
  });

  it('refuse a placeholder with no saved value behind it (another agent’s is not taken)', () => {
    const saved = settings({ GEMINI_API_KEY: 'k' });
    const next = Settings.parse({
      agents: { a: { command: 'a' }, b: { command: 'b', env: { GEMINI_API_KEY: HIDDEN_VALUE } } },
    });
    expect(() => keepHiddenSecrets(next, saved)).toThrow(/agent "b": GEMINI_API_KEY/);
  });
});
