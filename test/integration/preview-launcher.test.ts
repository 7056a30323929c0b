// A previewed command's scratch layer is started by the agents' launcher, never by the core's own
// thread: its parent is the launcher. A launcher killed while a preview runs fails that preview
// closed (the layer dies with it, nothing it showed is taken) and the next preview starts a new one.
// Where no launcher is handed in, the process spawns the layer itself, through the same path.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentLauncher, launchAgent } from '../../src/main/core/agents/launcher';
import {
  spawnHere,
  type LayerProcess,
  type LayerSpec,
} from '../../src/main/core/sandbox/layer-run';
import { bwrapMissing } from '../support/bwrap';
import { previewProject, type PreviewProject } from '../support/preview-project';

const skip = bwrapMissing('the launcher starting preview layers');

/** The parent pid of a process, from /proc (field 4 of stat, after the command's parenthesis). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

interface Started {
  pid: number;
  parent: number;
  launcher: number;
}

/** The launcher's spawn, noting each layer's pid and parent while it lives. */
function watchedSpawns(then?: (started: Started) => void) {
  const started: Started[] = [];
  const spawnLayer = async (spec: LayerSpec): Promise<LayerProcess> => {
    const launcher = (await agentLauncher()).pid!;
    const layer = await launchAgent(spec);
    // The layer lives until its pipes say it may go: its parent is read before that.
    const entry = { pid: layer.pid!, parent: parentOf(layer.pid!), launcher };
    started.push(entry);
    then?.(entry);
    return layer;
  };
  return { started, spawnLayer };
}

const projects: PreviewProject[] = [];
afterAll(() => projects.forEach((p) => p.remove()));

describe.skipIf(skip)("a preview's scratch layer and the launcher", () => {
  it("is a child of the launcher, not of the core's process", async () => {
    const { started, spawnLayer } = watchedSpawns();
    const p = previewProject({}, spawnLayer);
    projects.push(p);
    const preview = await p.preview('echo new > made.txt');
    expect(preview.state).toBe('done');
    expect(preview.changes.map((change) => change.path)).toEqual([join(p.project, 'made.txt')]);
    expect(started).toHaveLength(1);
    const [layer] = started;
    expect(layer!.parent).toBe(layer!.launcher);
    expect(layer!.parent).not.toBe(process.pid);
  });

  it('fails a preview closed when its launcher is killed, and the next preview gets a new launcher', async () => {
    let killed = false;
    const { started, spawnLayer } = watchedSpawns((layer) => {
      if (killed) return;
      killed = true;
      process.kill(layer.launcher, 'SIGKILL');
    });
    const p = previewProject({}, spawnLayer);
    projects.push(p);
    const before = p.snapshot(p.project);
    // Ends only by being killed: the bound is far off.
    const lost = await p.preview('echo new > made.txt; sleep 100', { timeoutMs: 120_000 });
    expect(lost.state).toBe('unavailable');
    expect(lost.detail).toMatch(/launcher/);
    expect(lost.changes).toEqual([]);
    expect(p.snapshot(p.project)).toEqual(before);
    expect(p.leftovers()).toEqual([]);

    const next = await p.preview('echo new > made.txt');
    expect(next.state).toBe('done');
    expect(next.changes.map((change) => change.path)).toEqual([join(p.project, 'made.txt')]);
    expect(started).toHaveLength(2);
    expect(started[1]!.launcher).not.toBe(started[0]!.launcher);
    expect(started[1]!.parent).toBe(started[1]!.launcher);
  });

  it('a data folder too deep for its sockets: the preview is unavailable and says why, nothing is left', async () => {
    // Past a socket path's 108 bytes the path is cut, and the bridge would bind the folder itself.
    const p = previewProject({}, launchAgent, 'g'.repeat(80));
    projects.push(p);
    const preview = await p.preview('echo new > made.txt');
    expect(preview.state).toBe('unavailable');
    expect(preview.detail).toMatch(/too long for unix sockets/);
    expect(p.snapshot(p.project)).not.toHaveProperty('made.txt');
    expect(p.leftovers()).toEqual([]);
  });

  it('is spawned by the process itself where no launcher is handed in, and shows the same', async () => {
    const parents: number[] = [];
    const p = previewProject({}, async (spec) => {
      const layer = await spawnHere(spec);
      parents.push(parentOf(layer.pid!));
      return layer;
    });
    projects.push(p);
    const preview = await p.preview('echo new > made.txt');
    expect(preview.state).toBe('done');
    expect(preview.changes.map((change) => change.path)).toEqual([join(p.project, 'made.txt')]);
    expect(parents).toEqual([process.pid]);
  });
});
