// `npm run headless` builds when what the build reads changed, and only then.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDecision, ensureBuilt } from '../../scripts/build-if-changed.mjs';

let root: string;
let builds: number;
const said: string[] = [];

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

// Stands in for electron-vite: writes what a build leaves in out/.
function fakeBuild(): { ok: boolean; output: string } {
  builds += 1;
  write('out/main/headless.js', `// build ${builds}\n`);
  write('out/renderer/index.html', '<!doctype html>\n');
  return { ok: true, output: `built ${builds}\n` };
}

const run = () => ensureBuilt(root, { build: fakeBuild, say: (line) => said.push(line) });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gatehouse-build-'));
  builds = 0;
  said.length = 0;
  write('package.json', '{"name":"probe"}\n');
  write('electron.vite.config.ts', 'export default {};\n');
  write('src/main/headless.ts', 'console.log(1);\n');
  write('src/renderer/index.html', '<!doctype html>\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the build before npm run headless', () => {
  it('builds the first time, then not again while nothing changed', () => {
    expect(buildDecision(root)).toMatchObject({ build: true });
    expect(run()).toBe(true);
    expect(builds).toBe(1);
    expect(readFileSync(join(root, 'out/build.log'), 'utf8')).toBe('built 1\n');
    expect(buildDecision(root)).toMatchObject({
      build: false,
      reason: 'nothing changed since the last build',
    });
    expect(run()).toBe(true);
    expect(builds).toBe(1);
    expect(said).toHaveLength(1);
  });

  it('builds again when a source file changes, is added, or a config file changes', () => {
    run();
    write('src/main/headless.ts', 'console.log(2);\n');
    expect(buildDecision(root)).toMatchObject({
      build: true,
      reason: 'sources changed since the last build',
    });
    run();
    write('src/main/new-file.ts', 'export {};\n');
    run();
    write('electron.vite.config.ts', 'export default { x: 1 };\n');
    run();
    write('package-lock.json', '{}\n');
    run();
    expect(builds).toBe(5);
  });

  it('does not build when only a test beside its unit changed: no bundle holds it', () => {
    run();
    write('src/main/headless.test.ts', 'it("x", () => {});\n');
    write('src/main/fixtures.test-support.ts', 'export {};\n');
    expect(buildDecision(root)).toMatchObject({ build: false });
  });

  it('does not build when only a time changed, not a content', () => {
    run();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/main/headless.ts'), later, later);
    expect(buildDecision(root)).toMatchObject({ build: false });
  });

  it('builds when out/ was changed by another build or lost a file it needs', () => {
    run();
    write('out/main/headless.js', '// a build of other sources\n');
    expect(buildDecision(root)).toMatchObject({
      build: true,
      reason: 'out/ changed since the last build',
    });
    run();
    rmSync(join(root, 'out/renderer/index.html'));
    expect(buildDecision(root)).toMatchObject({
      build: true,
      reason: 'out/renderer/index.html is missing',
    });
    run();
    expect(builds).toBe(3);
  });

  it('a failed build stamps nothing: the next start builds again, and its output is shown', () => {
    const failing = () => ({ ok: false, output: 'error TS1005: ; expected\n' });
    const stderr: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => stderr.push(String(chunk)) > 0) as typeof original;
    try {
      expect(ensureBuilt(root, { build: failing, say: (line) => said.push(line) })).toBe(false);
    } finally {
      process.stderr.write = original;
    }
    expect(stderr.join('')).toContain('error TS1005');
    expect(said.at(-1)).toMatch(/build failed/);
    expect(readFileSync(join(root, 'out/build.log'), 'utf8')).toContain('error TS1005');
    expect(buildDecision(root)).toMatchObject({ build: true });
  });
});
