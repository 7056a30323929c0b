// Headless entry: the core and the HTTP + SSE API serving the renderer to a browser. No Electron.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import {
  confirmOnTerminal,
  SettingsError,
  PRINTED_PAIRING_TTL_MS,
  startCore,
  AuditKeyError,
  logFilePath,
  installLogSink,
  logger,
  nodeLogSink,
  acquireHomeLock,
  HomeLockedError,
  InvalidPolicyConfigError,
  resolveHome,
  loadServerToken,
  newServerToken,
  ServerTokenError,
  writeServerToken,
} from './core';
import { startHttpServer, type RunningServer } from './server/http-server';
import { checkListenHost, listenOptions, ListenOptionsError } from './server/listen-options';
import { SocketPathError } from './control/socket-path';

const log = logger('headless');

async function main(): Promise<void> {
  const flags = listenOptions(process.argv.slice(2));
  // GATEHOUSE_TOKEN is read once at start and removed from this process's environment, so the
  // agents spawned later do not inherit it.
  const fromEnv = process.env.GATEHOUSE_TOKEN;
  delete process.env.GATEHOUSE_TOKEN;
  const home = resolveHome(process.env);
  const lock = acquireHomeLock(home, 'headless');
  // The token outlives a restart (browsers and phones keep their address) until it is rotated.
  const served = loadServerToken(home, fromEnv || undefined);
  const { token } = served;
  installLogSink(nodeLogSink({ path: logFilePath(home) }));
  // Settings and the managed policy are read here (what is wrong with them stops the start before
  // anything listens); the rest of the core is made while the server already answers.
  const starting = startCore({
    home,
    confirmLocally: confirmOnTerminal((line) => process.stderr.write(`${line}\n`)),
  });
  const { settings } = starting;
  const port = process.env.GATEHOUSE_PORT
    ? Number(process.env.GATEHOUSE_PORT)
    : settings.server.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SettingsError('GATEHOUSE_PORT', [`not a port number: ${process.env.GATEHOUSE_PORT}`]);
  }
  let listened!: (server: RunningServer) => void;
  const listening = new Promise<RunningServer>((resolve) => (listened = resolve));
  // Who may reach the API changes when the token does: each new token is in the audit (never the
  // token itself), committed before any request holding it is answered and before it is printed.
  // Where the server listens is audited before any request is answered too.
  const ready = starting.ready.then(async (core) => {
    if (served.origin !== 'kept') {
      core.store.recordEvent({
        type: 'server_token_changed',
        at: core.now(),
        payload: { how: served.origin, ...(served.reason ? { reason: served.reason } : {}) },
      });
    }
    core.clients.announceServer(await listening);
    await core.store.flush();
    return core;
  });
  const server = await startHttpServer({
    core: { ready, health: starting.health },
    token,
    host:
      flags.host ??
      (process.env.GATEHOUSE_HOST
        ? checkListenHost(process.env.GATEHOUSE_HOST, 'GATEHOUSE_HOST')
        : checkListenHost(settings.server.host, 'server.host')),
    port,
    staticDir: join(dirname(fileURLToPath(import.meta.url)), '../renderer'),
  });
  // The slow part of the start begins once the server answers.
  starting.begin();
  listened(server);
  lock.update({ url: server.url });
  const core = await ready;
  const rotateToken = () => {
    const next = newServerToken();
    writeServerToken(home, next);
    server.replaceToken(next);
    core.store.recordEvent({
      type: 'server_token_changed',
      at: core.now(),
      payload: { how: 'rotated' },
    });
    log.info('the bearer token was rotated');
  };
  // The control socket opens once the core is ready: its module loads then, not before the listen.
  const { startControlServer } = await import('./control/server');
  const control = await startControlServer({ core, lock, rotateToken });
  // One line a person (or a test) can open: the token and a one-time pairing secret ride in the
  // fragment, never sent to a server. The first browser to open it is paired: its votes are a person's.
  // It is the terminal's, not the log's: the log file never holds the token.
  const [phoneUrl] = server.networkUrls;
  if (phoneUrl) {
    // Only a server on the network draws a code; the others never load its module.
    const { renderUnicodeCompact } = await import('uqr');
    // A second secret for the code a phone scans: whichever opens first does not spend the other's.
    const phone = core.clients.issuePairingSecret(PRINTED_PAIRING_TTL_MS, null);
    process.stdout.write(
      `Reachable from the network at ${server.networkUrls.join(', ')}: anyone on that network ` +
        'reaches the sign-in, and over plain HTTP anyone listening can read the token. Serve on a ' +
        'network you trust, or behind a TLS proxy.\n' +
        `Scan to pair a phone:\n${renderUnicodeCompact(`${phoneUrl}/#token=${token}&pair=${phone.secret}`)}\n`,
    );
  }
  const { secret } = core.clients.issuePairingSecret(PRINTED_PAIRING_TTL_MS, null);
  process.stdout.write(`Gatehouse is running at ${server.url}/#token=${token}&pair=${secret}\n`);
  log.info(`listening at ${server.url}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await control.close();
    await server.close();
    await core.close();
    process.exit(0);
  };
  // Ctrl-C, a service manager's stop, and the terminal closed: each a clean stop.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
}

// Why Gatehouse did not start is told to the person at the terminal, in these words.
main().catch((error: unknown) => {
  if (error instanceof HomeLockedError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const known =
    error instanceof ListenOptionsError ||
    error instanceof SettingsError ||
    error instanceof InvalidPolicyConfigError ||
    error instanceof AuditKeyError ||
    error instanceof ServerTokenError ||
    error instanceof SocketPathError;
  const reason = known
    ? error.message
    : (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? `the port is in use (${(error as Error).message}). Set GATEHOUSE_PORT.`
      : inspect(error);
  process.stderr.write(`Gatehouse cannot start: ${reason}\n`);
  process.exit(1);
});
