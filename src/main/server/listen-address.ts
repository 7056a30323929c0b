// Where the server listens and which names it answers to. Loopback by default: only this machine
// reaches it. A person may serve it on their network (a phone approves), and then the one address
// another device can open is the one a connection came in on, never a name a page chose.
import { isIP } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/** `::ffff:192.0.2.1` is the IPv4 address a dual-stack socket reports it as. */
const unmapped = (address: string) =>
  address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4
    ? address.slice(7)
    : address;

export function isLoopbackAddress(address: string): boolean {
  const plain = unmapped(address);
  return plain.startsWith('127.') || plain === '::1';
}

/** A bind address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || isLoopbackAddress(host);
}

export const isWildcardHost = (host: string) => WILDCARDS.has(host);

/** An address as it stands in a URL or a Host header: IPv6 in brackets. */
export const hostPart = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/**
 * The addresses another device opens: none when bound to loopback; every external address of this
 * machine when bound to all of them (link-local IPv6 needs a zone no browser takes, so it is left
 * out); else the one address or name the person chose.
 */
export function networkUrls(
  host: string,
  port: number,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  if (isLoopbackHost(host)) return [];
  if (!isWildcardHost(host)) return [`http://${hostPart(host)}:${port}`];
  const ipv4Only = host === '0.0.0.0';
  const addresses = Object.values(interfaces)
    .flat()
    .filter((i): i is NetworkInterfaceInfo => !!i && !i.internal)
    .filter((i) => (ipv4Only ? i.family === 'IPv4' : !i.address.toLowerCase().startsWith('fe80')))
    // IPv4 first: what a person types and what a phone on Wi-Fi most surely reaches.
    .sort((a, b) => (a.family === b.family ? 0 : a.family === 'IPv4' ? -1 : 1));
  return addresses.map((i) => `http://${hostPart(i.address)}:${port}`);
}

/**
 * Whether a request's Host header names this server. A page of another site whose name was made to
 * resolve here (DNS rebinding) sends its own name and is refused. Accepted: the loopback names, the
 * name or address the server was bound to (a wildcard is no name), and the address this very
 * connection came in on — so a network address is accepted only where the server is served on it.
 */
export function hostAllowed(
  header: string | undefined,
  server: { boundHost: string; port: number; localAddress: string | undefined },
): boolean {
  if (!header) return false;
  const given = header.toLowerCase();
  const names = ['127.0.0.1', 'localhost', '::1'];
  if (!isWildcardHost(server.boundHost)) names.push(server.boundHost.toLowerCase());
  if (server.localAddress) names.push(unmapped(server.localAddress).toLowerCase());
  return names.some((name) => {
    const part = hostPart(name);
    return given === `${part}:${server.port}` || (server.port === 80 && given === part);
  });
}
