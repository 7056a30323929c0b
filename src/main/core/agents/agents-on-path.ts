// The ACP agents installed on this machine, found on the PATH Gatehouse runs with, so that the
// first screen can offer them instead of a command line to type. Only a fixed table of known launch
// lines is looked for: nothing on the machine decides what is offered or how it is started.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

export interface FoundAgent {
  /** The agent id it is added under (the id the known agents' sandbox defaults are keyed by). */
  id: string;
  name: string;
  /** The program found, as an absolute path. */
  command: string;
  args: string[];
  /** What the person should know before adding it. */
  note: string | null;
}

interface Launch {
  id: string;
  name: string;
  program: string;
  args: string[];
  note?: string;
}

const LAUNCHES: readonly Launch[] = [
  { id: 'gemini', name: 'Gemini CLI', program: 'gemini', args: ['--acp'] },
  { id: 'claude', name: 'Claude Code (claude-agent-acp)', program: 'claude-agent-acp', args: [] },
  { id: 'codex', name: 'Codex (codex-acp)', program: 'codex-acp', args: [] },
  { id: 'qwen', name: 'Qwen Code', program: 'qwen', args: ['--experimental-acp'] },
  { id: 'goose', name: 'goose', program: 'goose', args: ['acp'] },
  {
    id: 'opencode',
    name: 'opencode',
    program: 'opencode',
    args: ['acp'],
    note: 'opencode also approves requests from any local program; Gatehouse starts it only with "allowUnguarded": true.',
  },
];

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The first executable of that name in the PATH's folders (relative folders are skipped). */
async function which(program: string, folders: readonly string[]): Promise<string | null> {
  for (const folder of folders) {
    const path = join(folder, program);
    if (await executable(path)) return path;
  }
  return null;
}

/** The known agents found on `path`, in the table's order; those already configured are left out. */
export async function agentsOnPath(
  path: string,
  configured: ReadonlySet<string>,
): Promise<FoundAgent[]> {
  // A relative PATH entry would resolve against whatever folder Gatehouse was started in.
  const folders = [...new Set(path.split(delimiter).filter((f) => f && isAbsolute(f)))];
  const found = await Promise.all(
    LAUNCHES.filter((l) => !configured.has(l.id)).map(async (l) => {
      const command = await which(l.program, folders);
      return command
        ? { id: l.id, name: l.name, command, args: [...l.args], note: l.note ?? null }
        : null;
    }),
  );
  return found.filter((a): a is FoundAgent => a !== null);
}
