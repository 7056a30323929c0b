// The sandbox's listener when the network is an allow-list. The sandbox has its own network
// namespace (only its own loopback), so this relay listens on that loopback, where the agent expects
// its model server and the proxy, and carries each connection to a unix socket of the bridge that
// Gatehouse runs outside. Plain JavaScript, run with `node -e`, so it needs no file inside the
// sandbox. Given a command, it runs it with the same stdio and leaves with its exit code (the
// scratch layer); without one it prints `ready` once it listens and stays (relayLaunch below).
export interface RelaySpec {
  forwards: { host: string; port: number; socket: string }[];
  /** Variables for the agent only (the proxy settings). */
  setEnv: Record<string, string>;
  /** Variables the relay needs and the agent must not inherit. */
  unsetEnv: string[];
  /**
   * The agent starts in this nested sandbox (argv up to `--`), which reads the Unix-socket filter
   * from descriptor `fd` (unix-sockets.ts): the relay itself must reach the bridge's sockets.
   */
  nested?: { argv: string[]; fd: number };
}

export const RELAY_SOURCE = String.raw`
const net = require('node:net');
const { spawn } = require('node:child_process');
const [spec, command, ...args] = process.argv.slice(1);
const { forwards, setEnv, unsetEnv, nested } = JSON.parse(spec);
const listening = [];
// Started by the socket activator (socket-activation.ts): the listeners are already bound, in order.
let inherited = Number(process.env.LISTEN_FDS) > 0 ? 3 : 0;
for (const f of forwards) {
  const hosts = f.host === 'localhost' ? ['127.0.0.1', '::1'] : [f.host.replace(/^\[|\]$/g, '')];
  for (const host of hosts) {
    const server = net.createServer((client) => {
      const upstream = net.connect(f.socket);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    const fd = inherited > 0 ? inherited++ : 0;
    listening.push(new Promise((ok, fail) => {
      server.once('error', host === '::1' ? ok : fail);
      if (fd > 0) server.listen({ fd }, ok);
      else server.listen(f.port, host, ok);
    }));
  }
}
Promise.all(listening).then(() => {
  if (command === undefined) {
    process.stdout.on('error', () => {});
    process.stdout.write('ready\n');
    return;
  }
  const env = { ...process.env, ...setEnv };
  for (const name of unsetEnv) delete env[name];
  const file = nested ? nested.argv[0] : command;
  const argv = nested ? [...nested.argv.slice(1), command, ...args] : args;
  // Only the filter's descriptor passes to the nested sandbox, which reads and closes it.
  const stdio = nested ? ['inherit', 'inherit', 'inherit', ...new Array(nested.fd - 3).fill('ignore'), nested.fd] : 'inherit';
  const child = spawn(file, argv, { stdio, env });
  if (nested) require('node:fs').closeSync(nested.fd);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => { process.stderr.write('sandbox: ' + error.message + '\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (require('node:os').constants.signals[signal] ?? 0)));
}, (error) => { process.stderr.write('sandbox relay: ' + error.message + '\n'); process.exit(125); });
`;

/** The descriptor that holds the agent's stdin while the relay's line is read on stdin. */
export const SAVED_STDIN_FD = 8;

/**
 * The sandbox's first command for an allow-list network when no socket activator can bind the
 * listeners (socket-activation.ts): the relay and the agent's side start together, so that Node's
 * boot (the relay) and the nested sandbox's setup (the filter) overlap instead of following each
 * other. The agent's side then waits for the relay's `ready` before the agent runs, so the agent
 * never finds its proxy not yet listening; a relay that fails ends the sandbox with 125. The relay
 * runs in the background, holding neither the agent's stdin nor the filter's descriptor; it ends
 * with the sandbox's pid namespace when the agent exits.
 */
export function relayLaunch(
  nodePath: string,
  spec: Omit<RelaySpec, 'nested'>,
  nested: readonly string[] | null,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const saved = SAVED_STDIN_FD;
  const agentSide = [
    `IFS= read -r ready && [ "$ready" = ready ] || exit 125`,
    `exec 0<&${saved} ${saved}<&-`,
    ...agentVariables(spec),
    'exec "$@"',
  ].join('\n');
  const outer = `exec ${saved}<&0; { "$1" -e "$2" "$3" ${saved}<&- 9<&- & } | { shift 3; exec "$@"; }`;
  return {
    command: '/bin/sh',
    args: [
      '-c',
      outer,
      'sh',
      nodePath,
      RELAY_SOURCE,
      relaySpecOnly(spec),
      ...(nested ?? []),
      '/bin/sh',
      '-c',
      agentSide,
      'sh',
      command,
      ...args,
    ],
  };
}

/** What the relay itself is told: where to listen and where to carry each connection. */
export function relaySpecOnly(spec: Omit<RelaySpec, 'nested'>): string {
  return JSON.stringify({ forwards: spec.forwards, setEnv: {}, unsetEnv: [] });
}

/** Shell lines that give the agent its variables (the proxy's) and take away the relay's. */
export function agentVariables(spec: Pick<RelaySpec, 'setEnv' | 'unsetEnv'>): string[] {
  return [
    ...spec.unsetEnv.map((name) => `unset ${shellName(name)}`),
    ...Object.entries(spec.setEnv).map(
      ([name, value]) => `export ${shellName(name)}=${shellQuote(value)}`,
    ),
  ];
}

function shellName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a variable name: ${name}`);
  return name;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
