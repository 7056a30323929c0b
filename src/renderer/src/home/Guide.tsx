// The first screen with no agent configured: the agents found to add, and how to bring an editor's
// or a terminal's agent instead, with the gatehouse command of this install.
import { useEffect, useState } from 'react';
import type { CommandOutput } from '../../../shared/contract';
import { setupSnippets } from '../../../shared/setup-snippets';
import { useApi } from '../api/context';
import { AgentOffers } from './AgentOffers';

type Snippets = CommandOutput<'setupSnippets'>;

/** With no agent configured: how to add one, or to bring an editor's or a terminal's agent. */
export function Guide({ onAdded }: { onAdded(): void }) {
  const api = useApi();
  // Until the core says where it is installed: the command as installed on the PATH.
  const [snippets, setSnippets] = useState<Snippets>(() => ({
    command: ['gatehouse'],
    ...setupSnippets(['gatehouse']),
  }));
  useEffect(() => {
    api.call('setupSnippets', {}).then(setSnippets, () => undefined);
  }, [api]);
  return (
    <section className="home-card home-guide" aria-labelledby="home-guide">
      <h2 id="home-guide">Start here</h2>
      <p>Gatehouse runs coding agents and asks you before they act. No agent is configured yet.</p>
      <ol>
        <li>
          Add an agent: one found on this machine or in the ACP registry snapshot, below, or any
          other with <a href="#/settings">Settings → Agents → Add agent</a> — for example Gemini
          CLI: command <code>npx</code>, arguments <code>@google/gemini-cli --acp</code>.
          <AgentOffers onAdded={onAdded} />
        </li>
        <li>Come back here, type the folder it works in and start a session.</li>
        <li>
          Or keep working in your editor: have it start the agent through <code>gatehouse acp</code>
          , and its sessions show here with the editor&apos;s name while Gatehouse decides what the
          agent may do. In Zed&apos;s <code>settings.json</code>, with Gemini CLI added as the agent{' '}
          <code>gemini</code>:
          <pre className="home-snippet">
            <code>{snippets.editor}</code>
          </pre>
        </li>
        <li>
          Or in a terminal: hook Claude Code or Gemini CLI to Gatehouse, and each of their tool
          calls is decided here first.
          <pre className="home-snippet">
            <code>{snippets.terminal}</code>
          </pre>
        </li>
      </ol>
    </section>
  );
}
