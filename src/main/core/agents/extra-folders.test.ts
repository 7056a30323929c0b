import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extraFolders, takesExtraFolders } from './extra-folders';

let root: string;
let project: string;
let gatehouseHome: string;
let userHome: string;
let recorded: { type: string; payload: unknown }[];

const deps = () => ({
  home: gatehouseHome,
  userHome,
  now: () => 1,
  store: { recordEvent: (event: { type: string; payload: unknown }) => recorded.push(event) },
});
const folder = (name: string): string => {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  return path;
};
const check = (inputs: string[]) => extraFolders(inputs, { agentId: 'a', cwd: project }, deps());

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-extra-')));
  project = folder('work/project');
  gatehouseHome = folder('gatehouse');
  userHome = folder('home');
  recorded = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the folders a session is started with besides its own', () => {
  it('are the real paths of the folders the person named, in their order', async () => {
    const lib = folder('lib');
    const data = folder('home/data');
    symlinkSync(lib, join(root, 'lib-link'));
    expect(await check([join(root, 'lib-link'), data])).toEqual([lib, data]);
    expect(await check([])).toEqual([]);
    expect(recorded).toEqual([]);
  });

  it.each([
    ['relative', () => 'lib', 'folder must be an absolute path: lib'],
    ['missing', () => join(root, 'nope'), 'folder does not exist: {bad}'],
    [
      'a file',
      () => {
        writeFileSync(join(root, 'file'), 'x');
        return join(root, 'file');
      },
      'not a folder: {bad}',
    ],
    ['the session folder', () => project, 'it is the session folder itself'],
    [
      'inside the session folder',
      () => folder('work/project/sub'),
      'it is inside the session folder, the agent has it already',
    ],
    [
      'around the session folder',
      () => folder('work'),
      'it holds the session folder: start the session there instead',
    ],
    ['HOME', () => userHome, 'it is your home folder or holds it'],
    ['the root folder', () => '/', 'it is your home folder or holds it'],
    ['a system folder', () => '/usr/lib', 'it is in the system folder /usr'],
    ['/etc', () => '/etc', 'it is in the system folder /etc'],
    [
      "inside Gatehouse's data folder",
      () => folder('gatehouse/undo'),
      "folder is inside Gatehouse's own data folder: {bad}",
    ],
  ])('refuses %s, whole, with why, and audits it', async (_name, make, said) => {
    const lib = folder('lib');
    const bad = make();
    const problem = said.replace('{bad}', bad);
    await expect(check([lib, bad])).rejects.toThrow(`additional folder ${bad}: ${problem}`);
    expect(recorded).toEqual([
      {
        type: 'session_folders_refused',
        agentId: 'a',
        at: 1,
        payload: {
          cwd: project,
          additionalDirectories: [lib, bad],
          problem: `additional folder ${bad}: ${problem}`,
        },
      },
    ]);
  });

  it("refuses a folder that holds Gatehouse's data folder, one asked twice, and nested ones", async () => {
    const outer = folder('outer');
    const gatehouse = join(outer, 'gh');
    mkdirSync(gatehouse);
    await expect(
      extraFolders([outer], { agentId: 'a', cwd: project }, { ...deps(), home: gatehouse }),
    ).rejects.toThrow("it holds Gatehouse's own data folder");
    const lib = folder('lib');
    await expect(check([lib, lib])).rejects.toThrow('it is asked twice');
    await expect(check([lib, folder('lib/inner')])).rejects.toThrow(
      `it overlaps the additional folder ${lib}`,
    );
  });
});

describe('an agent told of extra folders', () => {
  const session = { agentId: 'a', cwd: '/p', additionalDirectories: ['/q'] };

  it('must advertise sessionCapabilities.additionalDirectories; else the start is refused and audited', () => {
    expect(() =>
      takesExtraFolders(
        { agentCapabilities: { sessionCapabilities: { additionalDirectories: {} } } },
        session,
        deps(),
      ),
    ).not.toThrow();
    for (const initialized of [
      {},
      { agentCapabilities: {} },
      { agentCapabilities: { sessionCapabilities: {} } },
      { agentCapabilities: { sessionCapabilities: { additionalDirectories: null } } },
      { agentCapabilities: { sessionCapabilities: { additionalDirectories: true } } },
    ]) {
      expect(() => takesExtraFolders(initialized, session, deps())).toThrow(
        /it does not take additional folders \(its sessionCapabilities\.additionalDirectories is not advertised\)/,
      );
    }
    expect(recorded).toHaveLength(5);
    expect(recorded[0]).toMatchObject({
      type: 'session_folders_refused',
      payload: { cwd: '/p', additionalDirectories: ['/q'] },
    });
  });
});
