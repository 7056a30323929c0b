// A stand-in for a core that is killed while its agent launcher runs a start: it asks the real
// launcher for one, prints the launcher's pid, and then holds its thread until it is killed.
// Run: node --import tsx stalled-core.ts <cue file> [handing-over | started].
// - handing-over (the default): the core holds its thread at once, so it never reads the launcher's
//   channel: the first pipe is never acknowledged and the others wait in the launcher. The started
//   program (four pipes, as a preview's scratch layer is started) writes its pid to the cue and then
//   reads its fourth pipe, which only the launcher still holds, until that closes.
// - started: the core holds its thread once the start is done. The started program has no lifeline
//   and ignores the end of its input, as a sandboxed agent whose bubblewrap missed its parent's
//   death would: it writes its pid and its child's to the cue, and sleeps.
import { agentLauncher } from '../../src/main/core/agents/launcher';

const cue = process.argv[2]!;
const started = process.argv[3] === 'started';
const launcher = await agentLauncher();
const start = launcher.spawn(
  started
    ? {
        command: '/bin/sh',
        args: ['-c', 'sleep 600 & echo "$$ $!" > "$1"; exec sleep 600', 'started', cue],
        cwd: '/',
        env: { PATH: '/usr/bin:/bin' },
        lifeline: false,
      }
    : {
        command: '/bin/sh',
        args: ['-c', 'echo $$ > "$1"; exec cat <&3 >/dev/null', 'started', cue],
        cwd: '/',
        env: { PATH: '/usr/bin:/bin' },
        lifeline: true,
      },
);
if (started) await start;
process.stdout.write(`launcher ${launcher.pid}\n`);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
