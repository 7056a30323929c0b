// A command run in a scratch layer changes nothing real, and what it would have changed is listed:
// files made, changed and removed, a folder removed whole. Its bounds hold: a write too large,
// memory past its bound, a network it cannot reach, and a command that does not end, stopped at its
// bound with every process it started.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInScratchLayer, type ScratchRunInput } from '../../src/main/core/sandbox/scratch-layer';

let base: string;
let project: string;
let listener: Server;
let port = 0;

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' };
const run = (command: string, more: Partial<ScratchRunInput> = {}) =>
  runInScratchLayer({ roots: [project], cwd: project, command, env, timeoutMs: 10_000, ...more });

/** Every file under `dir` with its content: the project as the person sees it. */
function snapshot(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = join(rel, entry.name);
    if (entry.isDirectory()) Object.assign(out, snapshot(dir, path));
    else out[path] = readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-scratch-test-')));
  project = join(base, 'project');
  mkdirSync(join(project, 'src', 'old'), { recursive: true });
  writeFileSync(join(project, 'README.md'), 'readme\n');
  writeFileSync(join(project, 'src', 'main.c'), 'int main;\n');
  writeFileSync(join(project, 'src', 'old', 'a.c'), 'a\n');
  writeFileSync(join(project, 'src', 'old', 'b.c'), 'b\n');
  listener = createServer((socket) => socket.end('reached\n'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  rmSync(base, { recursive: true, force: true });
});

describe('a command in a scratch layer', () => {
  it('lists what it creates, changes and deletes, and the real project is untouched', async () => {
    const before = snapshot(project);
    const result = await run(
      'echo changed > README.md && rm src/main.c && mkdir build && echo out > build/app.o && echo done',
    );
    expect(result.state).toBe('finished');
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe('done\n');
    expect(result.changes).toEqual([
      { path: join(project, 'README.md'), change: 'modified', entry: 'file', size: 8 },
      { path: join(project, 'build'), change: 'created', entry: 'folder' },
      { path: join(project, 'build', 'app.o'), change: 'created', entry: 'file', size: 4 },
      { path: join(project, 'src', 'main.c'), change: 'deleted', entry: 'file' },
    ]);
    expect(snapshot(project)).toEqual(before);
  });

  it('rm -rf of a folder lists the folder it removes', async () => {
    const result = await run('rm -rf src/old');
    expect(result.changes).toEqual([
      { path: join(project, 'src', 'old'), change: 'deleted', entry: 'folder' },
    ]);
    expect(readdirSync(join(project, 'src', 'old')).sort()).toEqual(['a.c', 'b.c']);
  });

  it('has no network: a server on 127.0.0.1 is not reached', async () => {
    const result = await run(
      `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => process.stdout.write(String(d))).on('error', e => { console.log(e.code); process.exit(3); })"`,
    );
    expect(result.output).not.toContain('reached');
    expect(result.exitCode).toBe(3);
  });

  it('a write past the size bound is cut off there', async () => {
    const result = await run('head -c 3000000 /dev/zero > big.bin; echo "exit $?"', {
      maxFileBytes: 1024 * 1024,
    });
    const big = result.changes.find((c) => c.path === join(project, 'big.bin'));
    expect(big?.size).toBeLessThanOrEqual(1024 * 1024);
    expect(result.output).not.toContain('exit 0');
  });

  it('a process that takes more memory than its bound fails, and the run still ends', async () => {
    const result = await run(
      `node -e "const a = []; for (;;) a.push(Buffer.alloc(64 * 1024 * 1024, 1))"; echo "exit $?"`,
      { maxMemoryBytes: 512 * 1024 * 1024 },
    );
    expect(result.state).toBe('finished');
    expect(result.output).toMatch(/exit [1-9]/);
  });

  it('a command that does not end is stopped at its bound, with the processes it started', async () => {
    const marker = `${3000 + Math.floor(Math.random() * 1000)}.25`;
    const result = await run(`sleep ${marker} & sleep ${marker}`, { timeoutMs: 800 });
    expect(result.state).toBe('timed_out');
    expect(result.exitCode).toBeNull();
    const left = readdirSync('/proc').filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
    expect(left).toEqual([]);
  });

  it('a root that cannot be covered makes the run unavailable, and nothing runs', async () => {
    const result = await run(`echo ran > ${join(base, 'ran.txt')}`, {
      roots: [join(base, 'no-such-folder')],
    });
    expect(result.state).toBe('unavailable');
    expect(result.reason).toMatch(/overlay/);
    expect(readdirSync(base)).not.toContain('ran.txt');
  });
});
