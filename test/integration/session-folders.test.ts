// A session's folder is checked before its agent is spawned, and the folders sessions opened in are
// offered again to every client, most recent first.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAgentLaunch } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

let gh: TestGatehouse | undefined;
let work: string | undefined;
afterEach(async () => {
  await gh?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  gh = work = undefined;
});

async function start(): Promise<{ gh: TestGatehouse; work: string; agentLog: string }> {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-folders-'));
  const agentLog = join(work, 'agent.jsonl');
  const launch = scriptedAgentLaunch({}, { logFile: agentLog });
  gh = await startGatehouse({
    agents: {
      s: {
        command: launch.command,
        args: launch.args,
        env: launch.env as Record<string, string>,
        // Its log lies in the real temp folder, which the sandbox replaces with its own.
        allowWrite: [work],
      },
    },
  });
  return { gh, work, agentLog };
}

describe('session folders over HTTP', () => {
  it('refuses a folder that is not one before any agent is spawned, and says why', async () => {
    const { gh, work, agentLog } = await start();
    const file = join(work, 'file.txt');
    writeFileSync(file, 'x');
    const cases: [string, RegExp][] = [
      ['relative/path', /absolute/],
      [join(work, 'missing'), /does not exist/],
      [file, /not a folder/],
      [gh.home, /Gatehouse's own data folder/],
      [join(gh.home, '.'), /Gatehouse's own data folder/],
    ];
    for (const [path, problem] of cases) {
      expect(await gh.api.call('checkFolder', { path })).toMatchObject({
        ok: false,
        problem: expect.stringMatching(problem),
      });
      await expect(gh.api.call('createSession', { agentId: 's', cwd: path })).rejects.toMatchObject(
        {
          status: 400,
          message: expect.stringMatching(problem),
        },
      );
    }
    expect(existsSync(agentLog)).toBe(false);
    expect(await gh.api.call('recentFolders', {})).toEqual([]);
  });

  it('offers the folders sessions opened in, most recent first, to every client', async () => {
    const { gh, work } = await start();
    const [a, b] = ['a', 'b'].map((name) => join(work, name));
    for (const folder of [a!, b!]) mkdirSync(folder);
    expect(await gh.api.call('checkFolder', { path: a! })).toEqual({ ok: true, path: a });
    for (const cwd of [a!, b!, a!]) await gh.api.call('createSession', { agentId: 's', cwd });
    const other = await gh.client({ paired: false });
    expect(await other.call('recentFolders', {})).toEqual([a, b]);
    // A folder that went away is not offered.
    rmSync(a!, { recursive: true });
    expect(await other.call('recentFolders', {})).toEqual([b]);
  });
});
