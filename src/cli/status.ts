// `gatehouse status`: is a core running on this home, which one, where, and its sessions.
import type { StatusResult } from '../shared/control-protocol';
import { readServerToken, resolveHome } from '../main/core';
import { controlSocketPath } from '../main/control/socket-path';
import { CoreNotRunningError, openControl } from './control-client';
import { EXIT, type CliIo } from './io';

/** No core runs on the home. */
export const EXIT_NOT_RUNNING = 3;

export const STATUS_HELP = `Usage: gatehouse status [--json | --url]

Tells whether a Gatehouse core (the desktop app or \`npm run headless\`) runs on $GATEHOUSE_HOME,
which one (kind, pid, version), where it listens, and its sessions: agent, state, folder and how
many of its requests wait for a decision.

Options:
  --json    one JSON object instead of text
  --url     only the address to open in a browser, its access token included (headless only);
            a page that says its token is no longer accepted needs this address
  -h, --help

Exit status: 0 a core is running, 3 none is, 1 the answer could not be read.`;

function describe(status: StatusResult): string[] {
  const lines = [
    `Gatehouse is running on ${status.home}`,
    `  ${status.kind}, pid ${status.pid}, version ${status.version}, started ${new Date(status.startedAt).toISOString()}`,
    `  control socket: ${status.socket ?? '(none)'}`,
  ];
  if (status.url) lines.push(`  http: ${status.url}`);
  const count = status.sessions.length;
  lines.push(count === 0 ? '  no sessions' : `  ${count} session${count === 1 ? '' : 's'}:`);
  for (const s of status.sessions) {
    const waiting = s.pending > 0 ? `  (${s.pending} waiting)` : '';
    lines.push(`    ${s.agentId}  ${s.state}  ${s.cwd}${waiting}`);
  }
  return lines;
}

/** The address a browser opens: the running server's origin and the token it serves with. */
function browserUrl(result: StatusResult, home: string): string | Error {
  if (!result.url) return new Error(`the ${result.kind} Gatehouse serves no browser address`);
  const token = readServerToken(home);
  if (typeof token !== 'string')
    return new Error(`no usable token in the data folder ${home} (${token?.untrusted ?? 'none'})`);
  return `${result.url}/#token=${encodeURIComponent(token)}`;
}

export async function status(
  options: { json: boolean; url?: boolean },
  io: CliIo,
): Promise<number> {
  const home = resolveHome(io.env);
  let socket: string;
  try {
    socket = controlSocketPath(home);
  } catch (error) {
    io.err(`gatehouse status: ${(error as Error).message}`);
    return EXIT.failed;
  }
  try {
    const { control } = await openControl(socket, 'cli');
    try {
      const result = await control.call('status');
      if (options.url) {
        const url = browserUrl(result, home);
        if (url instanceof Error) {
          io.err(`gatehouse status: ${url.message}`);
          return EXIT.failed;
        }
        io.out(url);
        return EXIT.ok;
      }
      io.out(
        options.json ? JSON.stringify({ running: true, ...result }) : describe(result).join('\n'),
      );
      return EXIT.ok;
    } finally {
      control.close();
    }
  } catch (error) {
    if (error instanceof CoreNotRunningError) {
      io.out(
        options.json
          ? JSON.stringify({ running: false, home, socket })
          : `Gatehouse is not running on ${home} (nothing listens on ${socket})`,
      );
      return EXIT_NOT_RUNNING;
    }
    io.err(
      `gatehouse status: cannot read the core's status on ${socket}: ${(error as Error).message}`,
    );
    return EXIT.failed;
  }
}
