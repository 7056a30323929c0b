// The headless entry's command line: `--host <address>` serves beyond loopback (a phone on the same
// network approves). What it names is checked before anything listens, as the setting is.
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { z } from 'zod';

export class ListenOptionsError extends Error {}

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

/** An IP address or a host name: what `listen` takes, and nothing else a URL would read. */
export const ListenHost = z
  .string()
  .min(1)
  .max(253)
  .refine((host) => isIP(host) !== 0 || HOST_NAME.test(host), 'not an IP address or a host name');

const USAGE = 'usage: headless [--host <address>]  (default: server.host, 127.0.0.1)';

/** The address to serve on, as given by `--host`; undefined when the flag is absent. */
export function listenOptions(argv: readonly string[]): { host?: string } {
  let host: string | undefined;
  try {
    ({
      values: { host },
    } = parseArgs({ args: [...argv], options: { host: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new ListenOptionsError(`${(error as Error).message}; ${USAGE}`);
  }
  if (host === undefined) return {};
  return { host: checkListenHost(host, '--host') };
}

/** The host from any source (flag, GATEHOUSE_HOST, server.host), or an error naming the source. */
export function checkListenHost(host: string, from: string): string {
  const checked = ListenHost.safeParse(host);
  if (!checked.success) {
    throw new ListenOptionsError(
      `${from}: ${JSON.stringify(host.slice(0, 80))} is ${checked.error.issues[0]?.message}; ${USAGE}`,
    );
  }
  return checked.data;
}
