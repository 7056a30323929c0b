// A stand-in for a core that is killed while the agent launcher hands it a start's pipes: it asks
// the real launcher for one start (four pipes, as a preview's scratch layer is started), prints the
// launcher's pid, and then holds its thread until it is killed, so it never reads the launcher's
// channel: the first pipe is never acknowledged and the others wait in the launcher.
// Run: node --import tsx stalled-core.ts <cue file>. The started program writes its pid to the cue
// and then reads its fourth pipe, which only the launcher still holds, until that closes.
import { agentLauncher } from '../../src/main/core/agents/launcher';

const cue = process.argv[2]!;
const launcher = await agentLauncher();
void launcher.spawn({
  command: '/bin/sh',
  args: ['-c', 'echo $$ > "$1"; exec cat <&3 >/dev/null', 'started', cue],
  cwd: '/',
  env: { PATH: '/usr/bin:/bin' },
  lifeline: true,
});
process.stdout.write(`launcher ${launcher.pid}\n`);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
