// Whether an agent's command names a program that is there, checked when the agent is added or
// changed: a person told "not found: gemini-cli-nope" at once fixes a typo that would otherwise
// surface as `spawn … ENOENT` when a session starts.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Null when the program is there; else why not, in words that name it. */
export function programProblem(command: string, path: string): string | null {
  if (command.includes('\0')) return 'the command holds a NUL character';
  if (isAbsolute(command)) {
    return executable(command)
      ? null
      : `command not found: ${JSON.stringify(command)} is not an executable file`;
  }
  if (command.includes('/')) {
    return `the command ${JSON.stringify(command)} is a relative path: give a program on the PATH or an absolute path`;
  }
  const folders = path.split(delimiter).filter((f) => f && isAbsolute(f));
  if (folders.some((folder) => executable(join(folder, command)))) return null;
  return `command not found: ${JSON.stringify(command)} is not a program on the PATH Gatehouse starts agents with`;
}
