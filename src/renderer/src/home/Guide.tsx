// The first screen with no agent configured: the agents found to add, and how to bring an editor's
// or a terminal's agent instead.
import { AgentOffers } from './AgentOffers';

/** An editor's agent run behind Gatehouse; the path is where this checkout or install lives. */
const EDITOR_SNIPPET = `"agent_servers": {
  "Gemini via Gatehouse": {
    "type": "custom",
    "command": "node",
    "args": ["/path/to/gatehouse/bin/gatehouse.mjs", "acp", "--agent", "gemini"]
  }
}`;

/** A terminal CLI asking Gatehouse before each tool call (its settings file gets one hook entry). */
const TERMINAL_SNIPPET = `node /path/to/gatehouse/bin/gatehouse.mjs hook install claude-code
node /path/to/gatehouse/bin/gatehouse.mjs hook install gemini`;

/** With no agent configured: how to add one, or to bring an editor's or a terminal's agent. */
export function Guide({ onAdded }: { onAdded(): void }) {
  return (
    <section className="home-card home-guide" aria-labelledby="home-guide">
      <h2 id="home-guide">Start here</h2>
      <p>Gatehouse runs coding agents and asks you before they act. No agent is configured yet.</p>
      <ol>
        <li>
          Add an agent: one found on this machine or in the ACP registry snapshot, below, or any
          other in <a href="#/settings">Settings → Agents</a> — for example Gemini CLI: command{' '}
          <code>npx</code>, arguments <code>@google/gemini-cli --acp</code>.
          <AgentOffers onAdded={onAdded} />
        </li>
        <li>Come back here, type the folder it works in and start a session.</li>
        <li>
          Or keep working in your editor: have it start the agent through <code>gatehouse acp</code>
          , and its sessions show here with the editor&apos;s name while Gatehouse decides what the
          agent may do. In Zed&apos;s <code>settings.json</code>, with Gemini CLI added as the agent{' '}
          <code>gemini</code>:
          <pre className="home-snippet">
            <code>{EDITOR_SNIPPET}</code>
          </pre>
        </li>
        <li>
          Or in a terminal: hook Claude Code or Gemini CLI to Gatehouse, and each of their tool
          calls is decided here first.
          <pre className="home-snippet">
            <code>{TERMINAL_SNIPPET}</code>
          </pre>
        </li>
      </ol>
    </section>
  );
}
