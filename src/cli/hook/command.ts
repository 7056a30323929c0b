// `gatehouse hook …`: which of its three forms was asked for.
import type { CliIo } from '../io';
import { HOOK_CLIS, isHookCli } from './formats';
import { hookInstall, HOOK_INSTALL_HELP } from './install';
import { HOOK_RUN_HELP, runHook } from './run';

export const HOOK_HELP = `${HOOK_RUN_HELP}\n\n${HOOK_INSTALL_HELP}`;

/** The command's exit status, or a usage problem to show with the help. */
export function hookCommand(
  positionals: string[],
  where: { user: boolean; project?: string },
  io: CliIo,
): Promise<number> | number | string {
  const [first, second, ...rest] = positionals;
  const clis = HOOK_CLIS.join('|');
  if (isHookCli(first)) {
    if (second !== undefined || where.user || where.project !== undefined)
      return `hook ${first} takes no arguments`;
    return runHook(first, io);
  }
  if (first !== 'install' && first !== 'uninstall')
    return first === undefined
      ? `hook: which CLI (${clis}), or install|uninstall?`
      : `hook: unknown command ${first}`;
  if (!isHookCli(second) || rest.length > 0) return `hook ${first}: name one CLI: ${clis}`;
  if (where.user && where.project !== undefined)
    return `hook ${first}: --user or --project, not both`;
  return hookInstall(
    first,
    second,
    { ...(where.project === undefined ? {} : { project: where.project }) },
    io,
  );
}
