// What a person pastes to bring an editor's or a terminal's agent behind Gatehouse, naming the
// gatehouse command of this install: shown on the first screen and by `gatehouse acp --help`.

/** A word as a POSIX shell reads it back unchanged. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@:=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `gatehouse`: how this install's command runs (its Node and bin/gatehouse.mjs, by absolute
 * path, or the bare name when it is installed on the PATH). `agentId`: the agent the editor runs.
 */
export function setupSnippets(
  gatehouse: readonly string[],
  agentId = 'gemini',
): { editor: string; terminal: string } {
  const [command = 'gatehouse', ...rest] = gatehouse;
  const server = {
    'Gemini via Gatehouse': {
      type: 'custom',
      command,
      args: [...rest, 'acp', '--agent', agentId],
    },
  };
  const body = JSON.stringify(server, null, 2).split('\n').slice(1, -1).join('\n');
  const line = gatehouse.map(shellWord).join(' ') || 'gatehouse';
  return {
    editor: `"agent_servers": {\n${body}\n}`,
    terminal: [`${line} hook install claude-code`, `${line} hook install gemini`].join('\n'),
  };
}
