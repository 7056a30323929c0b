// The scripted agent with its script read from a file: an environment string is capped at 128 KiB
// on Linux, too small for the 10k- and 100k-line edits the dialog is tested with.
//   SCRIPTED_AGENT_SCRIPT_FILE=/tmp/script.json node test/e2e/support/file-script-agent.ts
// Runs under plain `node` (type stripping): erasable syntax only.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const agent = fileURLToPath(new URL('../../support/agents/scripted-agent.ts', import.meta.url));
const file = process.env['SCRIPTED_AGENT_SCRIPT_FILE'];
if (!file) throw new Error('SCRIPTED_AGENT_SCRIPT_FILE is not set');
process.env['SCRIPTED_AGENT_SCRIPT'] = readFileSync(file, 'utf8');
// The agent runs its main() only when it is the script node was started with.
process.argv[1] = agent;
await import(agent);
