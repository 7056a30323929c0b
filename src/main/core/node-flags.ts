// What node is told when it starts a core's process. V8 reads these when it sets up the heap, so they
// are given on node's command line: by `npm run headless` and by `gatehouse acp` when it starts a
// core in the background. (The desktop app's main process is started by Electron, which takes V8
// flags only from its own command line.)

/**
 * Without V8's memory reducer. When a process goes from busy to idle, the reducer compacts the whole
 * heap to hand memory back, with the thread stopped: on a 2-core machine, the core's thread stopped
 * for 80–370 ms while the audit of a million entries was verified beside it (bench/stalls.ts), and
 * every agent, window and notification with it. Without it the heap keeps the size it grew to, and
 * the ordinary collections still reclaim the garbage.
 */
export const CORE_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
