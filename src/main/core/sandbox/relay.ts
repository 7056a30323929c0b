// The sandbox's first process when the network is an allow-list. The sandbox has its own network
// namespace (only its own loopback), so this relay listens on that loopback, where the agent expects
// its model server and the proxy, and carries each connection to a unix socket of the bridge that
// Gatehouse runs outside. Then it runs the agent with the same stdio and leaves with its exit code.
// Plain JavaScript, run with `node -e`, so it needs no file inside the sandbox.

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
for (const f of forwards) {
  const hosts = f.host === 'localhost' ? ['127.0.0.1', '::1'] : [f.host.replace(/^\[|\]$/g, '')];
  for (const host of hosts) {
    const server = net.createServer((client) => {
      const upstream = net.connect(f.socket);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    listening.push(new Promise((ok, fail) => {
      server.once('error', host === '::1' ? ok : fail);
      server.listen(f.port, host, ok);
    }));
  }
}
Promise.all(listening).then(() => {
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
