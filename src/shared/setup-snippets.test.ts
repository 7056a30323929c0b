import { describe, expect, it } from 'vitest';
import { setupSnippets, shellWord } from './setup-snippets';

describe('setupSnippets', () => {
  it("names this install's gatehouse command, quoted for a shell where it must be", () => {
    const snippets = setupSnippets(
      ['/opt/node 22/bin/node', '/home/me/gatehouse/bin/gatehouse.mjs'],
      'gem',
    );
    expect(JSON.parse(`{${snippets.editor}}`)).toEqual({
      agent_servers: {
        'Gemini via Gatehouse': {
          type: 'custom',
          command: '/opt/node 22/bin/node',
          args: ['/home/me/gatehouse/bin/gatehouse.mjs', 'acp', '--agent', 'gem'],
        },
      },
    });
    expect(snippets.terminal.split('\n')[0]).toBe(
      "'/opt/node 22/bin/node' /home/me/gatehouse/bin/gatehouse.mjs hook install claude-code",
    );
    expect(snippets.editor + snippets.terminal).not.toContain('/path/to/gatehouse');
  });

  it('quotes a word with a quote in it', () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});
