// `gatehouse token rotate`: a new bearer token for the headless server. Every page and phone holding
// the old address is refused from then on and says how to get the new one.
import { forgetServerToken, readServerToken, resolveHome } from '../main/core';
import { controlSocketPath } from '../main/control/socket-path';
import { CoreNotRunningError, openControl } from './control-client';
import { EXIT, type CliIo } from './io';

export const TOKEN_HELP = `Usage: gatehouse token rotate

Gives the headless server ($GATEHOUSE_HOME) a new access token. Browsers and phones that hold the
old address are refused from then on (the page says so); open the new address it prints
(\`gatehouse status --url\` prints it again). Paired devices stay paired. When Gatehouse is not
running, the next start makes the new token. Each new token is recorded in the audit.`;

export async function tokenRotate(io: CliIo): Promise<number> {
  const home = resolveHome(io.env);
  let socket: string;
  try {
    socket = controlSocketPath(home);
  } catch (error) {
    io.err(`gatehouse token rotate: ${(error as Error).message}`);
    return EXIT.failed;
  }
  try {
    const { control } = await openControl(socket, 'cli');
    try {
      await control.call('rotateToken');
      const { url } = await control.call('status');
      const token = readServerToken(home);
      io.out('The access token was rotated: pages holding the old address are refused now.');
      if (url && typeof token === 'string')
        io.out(`Open: ${url}/#token=${encodeURIComponent(token)}`);
      return EXIT.ok;
    } finally {
      control.close();
    }
  } catch (error) {
    if (error instanceof CoreNotRunningError) {
      forgetServerToken(home);
      io.out(
        `Gatehouse is not running on ${home}: its next start makes a new access token and prints its address.`,
      );
      return EXIT.ok;
    }
    io.err(`gatehouse token rotate: ${(error as Error).message}`);
    return EXIT.failed;
  }
}
