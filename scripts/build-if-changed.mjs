// `npm run headless` builds only when what the build reads changed since the last build it made: the
// sources, the build's configuration and the locked dependencies. It compares a fingerprint of them
// (file contents, not times: a checkout back and forth changes times, not what the build sees) with
// the stamp written in out/ after its last successful build. The stamp also holds the build's output
// as it left it, so a build made by other means (`npm run build` of another checkout state, a
// deleted file) is not taken for ours. The build's own lines go to out/build.log; a failed build
// prints them, so its errors are still shown.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { electronViteBin } from './electron-binary.mjs';

/** What the build reads besides src/. */
export const BUILD_INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'electron.vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
];
/** Without these the headless core cannot start, whatever the stamp says. */
export const BUILD_OUTPUTS_NEEDED = ['out/main/headless.js', 'out/renderer/index.html'];
const STAMP = 'out/.build-stamp.json';
const LOG = 'out/build.log';

function filesBelow(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

// Relative paths with forward slashes, so that one stamp reads the same on every system.
const name = (root, file) => relative(root, file).split(sep).join('/');

// Tests sit beside their units in src/, and no bundle imports them.
const isTest = (file) => /\.test(-support)?\.tsx?$/.test(file);

/**
 * One hash of the build's inputs: every file of src/ but the tests, and BUILD_INPUT_FILES, by path
 * and content.
 */
export function sourcesFingerprint(root) {
  const files = [
    ...filesBelow(join(root, 'src')).filter((file) => !isTest(file)),
    ...BUILD_INPUT_FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
  ]
    .map((file) => [name(root, file), file])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256');
  for (const [path, file] of files) {
    hash.update(`${path}\0`);
    hash.update(createHash('sha256').update(readFileSync(file)).digest());
  }
  return hash.digest('hex');
}

/** The build's output as it stands: every file of out/ but the stamp and the log, by size and time. */
export function outputFingerprint(root) {
  const own = new Set([STAMP, LOG]);
  const hash = createHash('sha256');
  for (const file of filesBelow(join(root, 'out'))
    .map((file) => [name(root, file), file])
    .filter(([path]) => !own.has(path))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const { size, mtimeMs } = statSync(file[1]);
    hash.update(`${file[0]}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
    return typeof stamp?.sources === 'string' && typeof stamp?.output === 'string' ? stamp : null;
  } catch {
    return null;
  }
}

/**
 * Whether to build, and why in words: no stamp, an output missing, the output changed since our
 * build, or the sources changed. `sources` is the fingerprint to stamp after a build.
 */
export function buildDecision(root) {
  const sources = sourcesFingerprint(root);
  const missing = BUILD_OUTPUTS_NEEDED.find((file) => !existsSync(join(root, file)));
  if (missing) return { build: true, reason: `${missing} is missing`, sources };
  const stamp = readStamp(root);
  if (!stamp) return { build: true, reason: 'no build of ours yet', sources };
  if (stamp.output !== outputFingerprint(root)) {
    return { build: true, reason: 'out/ changed since the last build', sources };
  }
  if (stamp.sources !== sources) {
    return { build: true, reason: 'sources changed since the last build', sources };
  }
  return { build: false, reason: 'nothing changed since the last build', sources };
}

/** After a successful build: the stamp of what it was built from and what it left. */
export function writeStamp(root, sources) {
  mkdirSync(join(root, 'out'), { recursive: true });
  writeFileSync(
    join(root, STAMP),
    `${JSON.stringify({ sources, output: outputFingerprint(root) })}\n`,
  );
}

/** electron-vite's build, its lines kept for out/build.log. */
function viteBuild(root) {
  const bin = electronViteBin(createRequire(join(root, 'package.json')));
  const result = spawnSync(process.execPath, [bin, 'build'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/**
 * Builds when buildDecision says so. Returns true when out/ holds a build of the current sources.
 * `build` and `say` are the build and the one line a person sees while it runs (tests pass their own).
 */
export function ensureBuilt(
  root,
  { build = viteBuild, say = (line) => process.stderr.write(`${line}\n`) } = {},
) {
  const decision = buildDecision(root);
  if (!decision.build) return true;
  say(`Building Gatehouse (${decision.reason}); the build's output goes to out/build.log`);
  const { ok, output } = build(root);
  mkdirSync(join(root, 'out'), { recursive: true });
  writeFileSync(join(root, LOG), output);
  if (!ok) {
    process.stderr.write(output);
    say('The build failed (above, and in out/build.log).');
    return false;
  }
  writeStamp(root, decision.sources);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.exitCode = ensureBuilt(root) ? 0 : 1;
}
