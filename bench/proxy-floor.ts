// The floor of a request decided through `gatehouse acp`: what any proxy pays that asks a separate
// process for each decision. A bare relay stands where the proxy stands (it starts the agent and
// copies the editor's bytes to it unread); each line of the agent's that names
// `session/request_permission` goes over a Unix socket to a bare "core" process, which parses it and
// answers allow at once; the relay writes that answer to the agent. Everything else the agent says
// goes to the editor as it came. One socket hop to another process and back, one parse there, and
// nothing of Gatehouse: no validation, rules, audit, commit or transcript.
//   node bench/proxy-floor.ts relay <socket> <agent script>     (what the editor starts)
//   node bench/proxy-floor.ts core <socket>                      (the bare core)
// Plain Node (type stripping): no relative imports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/** Calls `onLine` with each whole line of a byte stream, its newline kept. */
function lines(onLine: (line: Buffer) => void): (chunk: Buffer) => void {
  let rest: Buffer | null = null;
  return (chunk) => {
    let data = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, start)) {
      onLine(data.subarray(start, at + 1));
      start = at + 1;
    }
    data = data.subarray(start);
    rest = data.length > 0 ? Buffer.from(data) : null;
  };
}

function runCore(socketPath: string): void {
  const server = createServer((socket) => {
    socket.on(
      'data',
      lines((line) => {
        const { id } = JSON.parse(line.toString('utf8')) as { id: unknown };
        socket.write(
          `${JSON.stringify({ jsonrpc: '2.0', id, result: { outcome: { outcome: 'selected', optionId: 'allow' } } })}\n`,
        );
      }),
    );
  });
  server.listen(socketPath, () => process.stdout.write('listening\n'));
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

function runRelay(socketPath: string, agent: string): void {
  const child = spawn(process.execPath, [agent], { stdio: ['pipe', 'pipe', 'ignore'] });
  const core = createConnection(socketPath);
  process.stdin.pipe(child.stdin);
  core.on(
    'data',
    lines((line) => child.stdin.write(line)),
  );
  child.stdout.on(
    'data',
    lines((line) => {
      if (line.includes('"session/request_permission"')) core.write(line);
      else process.stdout.write(line);
    }),
  );
  process.stdin.on('end', () => {
    child.kill();
    core.end();
  });
  child.on('exit', () => process.exit(0));
}

/** The bare core, listening on `socketPath` once resolved; it ends when its stdin closes. */
export async function startFloorCore(socketPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SELF, 'core', socketPath], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the floor's core exited ${code}`)));
  });
  return child;
}

/** What the editor starts in the floor: the relay, with `agent` behind it. */
export function floorRelayArgs(socketPath: string, agent: string): string[] {
  return [SELF, 'relay', socketPath, agent];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [role, socketPath, agent] = process.argv.slice(2);
  if (role === 'core' && socketPath) runCore(socketPath);
  else if (role === 'relay' && socketPath && agent) runRelay(socketPath, agent);
  else {
    process.stderr.write('usage: proxy-floor.ts core <socket> | relay <socket> <agent>\n');
    process.exit(2);
  }
}
