// `npm start`: the desktop app under electron-vite's dev server, once there is an Electron binary to
// run it in. Where there is none, says so and what to run instead, rather than electron-vite's
// "Electron uninstall".
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { electronBinary, electronViteBin, MISSING_ELECTRON } from './electron-binary.mjs';

// ELECTRON_EXEC_PATH is where electron-vite takes the binary from; a person's own comes first.
const own = process.env.ELECTRON_EXEC_PATH;
const binary = own && existsSync(own) ? own : electronBinary();
if (!binary) {
  process.stderr.write(`${MISSING_ELECTRON}\n`);
  process.exit(1);
}
const vite = electronViteBin(createRequire(import.meta.url));
const child = spawn(process.execPath, [vite, 'dev', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_EXEC_PATH: binary },
});
// Ctrl+C reaches both (one process group); a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
