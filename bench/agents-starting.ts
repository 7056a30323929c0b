// A process of its own that starts agents as a plain SDK client would (spawn, initialize,
// session/new; no Gatehouse, no sandbox): the floor of bench/sessions-start.ts, where the bench's
// loop only waits while the same agents start beside it. Protocol on its stdio: it prints "ready"
// once loaded, starts `count` agents in `cwd` at the first line it reads, prints "started" when all
// have a session, and stops them when its stdin closes.
//   node --import tsx bench/agents-starting.ts <count> <cwd>
import { createInterface } from 'node:readline';
import { allow, floorAgent } from './sse-floors';

const [count, cwd] = [Number(process.argv[2]), process.argv[3]!];
const lines = createInterface({ input: process.stdin });
let agents: Awaited<ReturnType<typeof floorAgent>>[] = [];
lines.once('line', () => {
  void Promise.all(Array.from({ length: count }, () => floorAgent(cwd, allow))).then((started) => {
    agents = started;
    process.stdout.write('started\n');
  });
});
lines.once('close', () => {
  for (const agent of agents) agent.stop();
  process.exit(0);
});
process.stdout.write('ready\n');
