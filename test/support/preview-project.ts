// A project inside a HOME of its own, and a previewer over the sandbox a session there would have:
// what the preview suites try commands in. Each run's scratch folders go under the suite's own temp
// folder, so the suite can tell that none is left behind.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchAgent } from '../../src/main/core/agents/launcher';
import { createPreviewer, type Previewer } from '../../src/main/core/preview';
import { resolveSandboxProfile } from '../../src/main/core/sandbox/profile';
import type { LayerSpawner } from '../../src/main/core/sandbox/layer-run';
import type { ScratchBounds } from '../../src/main/core/sandbox/scratch-layer';
import { SandboxSettings } from '../../src/shared/sandbox-settings';

export interface PreviewProject {
  base: string;
  home: string;
  project: string;
  gatehouseHome: string;
  /** The temp folder the scratch folders are made in while the suite runs. */
  tmp: string;
  previewer: Previewer;
  /** Runs a command in the project (cwd) with HOME set, the given marker in its environment. */
  preview(
    command: string,
    more?: { timeoutMs?: number; signal?: AbortSignal; marker?: string },
  ): ReturnType<Previewer>;
  /** Every file under a folder with its content. */
  snapshot(dir: string): Record<string, string>;
  /** What is left of the scratch folders: in the temp folder and in the data folder's run folder. */
  leftovers(): string[];
  remove(): void;
}

/**
 * The process's temp folder, read before any project sets TMPDIR to its own: a project made inside
 * another's would leave its data folder too little of a socket path's 108 bytes.
 */
const PROCESS_TMP = tmpdir();

export function previewProject(
  bounds: Partial<ScratchBounds> = {},
  spawnLayer: LayerSpawner = launchAgent,
  /** The data folder's name in the project's base folder. */
  dataFolder = 'gatehouse',
): PreviewProject {
  const base = realpathSync(mkdtempSync(join(PROCESS_TMP, 'gatehouse-preview-test-')));
  const home = join(base, 'home');
  const project = join(home, 'project');
  const gatehouseHome = join(base, dataFolder);
  const tmp = join(base, 'tmp');
  for (const dir of [
    join(project, 'src', 'old'),
    join(project, '.git', 'hooks'),
    join(project, 'docs'),
    tmp,
    gatehouseHome,
  ])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.bashrc'), 'export PS1=home\n');
  writeFileSync(join(project, 'README.md'), 'readme\n');
  writeFileSync(join(project, 'src', 'main.c'), 'int main;\n');
  writeFileSync(join(project, 'src', 'old', 'a.c'), 'int a;\n');
  writeFileSync(join(project, 'src', 'old', 'b.c'), 'int b;\n');
  writeFileSync(join(project, 'docs', 'guide.md'), '# Guide\n\nHow to build.\n');
  writeFileSync(join(project, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
  const profile = resolveSandboxProfile({
    agentId: 'scripted',
    command: '/bin/true',
    args: [],
    settings: SandboxSettings.parse({}),
    home,
    sessionDir: project,
    gatehouseHome,
    tmpDir: tmp,
    env: {},
  });
  const previewer = createPreviewer({
    gatehouseHome,
    sandboxOf: (id) => (id === 'session-1' ? { folder: project, profile } : null),
    bounds,
    // As the core runs them: each layer started by the agents' launcher.
    spawnLayer,
  });
  const snapshot = (dir: string, rel = ''): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = join(rel, entry.name);
      if (entry.isDirectory()) Object.assign(out, snapshot(dir, path));
      else out[path] = readFileSync(join(dir, path), 'utf8');
    }
    return out;
  };
  const savedTmp = process.env['TMPDIR'];
  process.env['TMPDIR'] = tmp;
  return {
    base,
    home,
    project,
    gatehouseHome,
    tmp,
    previewer,
    preview: (command, more = {}) =>
      previewer({
        sessionId: 'session-1',
        command,
        cwd: project,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: home,
          ...(more.marker ? { GATEHOUSE_PREVIEW_MARKER: more.marker } : {}),
        },
        timeoutMs: more.timeoutMs ?? 20_000,
        signal: more.signal ?? new AbortController().signal,
      }),
    snapshot: (dir) => snapshot(dir),
    leftovers: () => [
      ...readdirSync(tmp),
      ...readdirSync(join(gatehouseHome, 'run')).filter((name) => /^(preview|net|tmp)-/.test(name)),
    ],
    remove: () => {
      if (savedTmp === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = savedTmp;
      rmSync(base, { recursive: true, force: true });
    },
  };
}
