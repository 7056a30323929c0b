// The layer rules of eslint.config.js, each shown to fire: an import in the wrong direction is an
// error, the same kind of import in the right direction is not. Code is linted in memory as if it
// sat at the given path, against the real files it imports.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it, vi } from 'vitest';

// A lint that reaches a new part of the import graph parses it first (no-cycle): seconds each.
vi.setConfig({ testTimeout: 60_000 });

const eslint = new ESLint({ cwd: join(import.meta.dirname, '../..') });
const RULES = new Set([
  'import-x/no-restricted-paths',
  'import-x/no-cycle',
  'no-restricted-imports',
]);

/** The layer and cycle errors of `code` linted as `filePath` (unused imports and the like ignored). */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.severity === 2 && RULES.has(m.ruleId ?? ''))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const importOf = (source: string) => `import '${source}';\n`;

interface LayerCase {
  file: string;
  refused: string[];
  allowed: string[];
}

const CASES: Record<string, LayerCase> = {
  shared: {
    file: 'src/shared/probe.ts',
    refused: ['../main/core/events/bus', '../renderer/src/api', '../preload/index'],
    allowed: ['./contract'],
  },
  core: {
    file: 'src/main/core/probe.ts',
    refused: [
      '../server/routes',
      '../desktop/deep-link',
      '../presence',
      '../headless',
      '../../renderer/src/api',
    ],
    allowed: ['../../shared/contract', './events/bus', './log/logger'],
  },
  server: {
    file: 'src/main/server/probe.ts',
    refused: ['../desktop/deep-link', '../presence', '../index', '../core/events/bus'],
    allowed: ['../../shared/security-headers', '../core', './routes'],
  },
  presence: {
    file: 'src/main/presence/probe.ts',
    refused: ['../desktop/deep-link', '../server/routes', '../core/events/bus'],
    allowed: ['../../shared/contract', '../core', './text'],
  },
  control: {
    file: 'src/main/control/probe.ts',
    refused: [
      '../server/routes',
      '../desktop/deep-link',
      '../presence',
      '../../cli/main',
      '../core/events/bus',
    ],
    allowed: ['../../shared/control-protocol', '../core', './line-reader'],
  },
  cli: {
    file: 'src/cli/probe.ts',
    refused: [
      '../main/server/routes',
      '../main/desktop/deep-link',
      '../main/presence',
      '../main/core/store/data-folder',
    ],
    allowed: ['../shared/control-protocol', '../main/core', '../main/control/socket-path', './io'],
  },
  desktop: {
    file: 'src/main/desktop/probe.ts',
    refused: ['../server/routes', '../server/static-files', '../headless', '../core/events/bus'],
    allowed: [
      '../../shared/security-headers',
      '../core',
      '../presence',
      '../control/server',
      './deep-link',
    ],
  },
  // An entry is targeted by its name, so the probe is the entry itself.
  'an entry': {
    file: 'src/main/headless.ts',
    refused: ['../renderer/src/api', '../preload/index', './core/core'],
    allowed: [
      '../shared/contract',
      './core',
      './server/http-server',
      './desktop/deep-link',
      './presence',
    ],
  },
  renderer: {
    file: 'src/renderer/src/probe.ts',
    refused: ['../../main/core/events/bus', '../../main/server/routes', '../../preload/index'],
    allowed: ['../../shared/contract', './api'],
  },
  preload: {
    file: 'src/preload/probe.ts',
    refused: ['../main/core/events/bus', '../renderer/src/api'],
    allowed: ['../shared/contract'],
  },
};

describe('layers', () => {
  describe.each(Object.entries(CASES))('%s', (_name, { file, refused, allowed }) => {
    it.each(refused)('refuses %s', async (source) => {
      const errors = await layerErrors(file, importOf(source));
      expect(errors).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*Layers: /)]);
    });

    it('allows its own layer and the ones below it', async () => {
      expect(await layerErrors(file, allowed.map(importOf).join(''))).toEqual([]);
    });
  });

  it('a type-only import in the wrong direction is refused too', async () => {
    const code =
      "import type { RunningServer } from '../server/http-server';\nexport type S = RunningServer;\n";
    expect(await layerErrors('src/main/core/probe.ts', code)).toEqual([
      expect.stringMatching(/no-restricted-paths/),
    ]);
  });
});

describe('Electron', () => {
  const electron = "import { app } from 'electron';\nexport const a = app;\n";

  it.each([
    'src/main/core/probe.ts',
    'src/main/presence/probe.ts',
    'src/main/server/probe.ts',
    'src/shared/probe.ts',
  ])('is refused in %s', async (file) => {
    expect(await layerErrors(file, electron)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Electron is imported only in/),
    ]);
  });

  it('is allowed in the desktop and the preload', async () => {
    expect(await layerErrors('src/main/desktop/probe.ts', electron)).toEqual([]);
    expect(await layerErrors('src/preload/probe.ts', electron)).toEqual([]);
  });
});

describe('cycles', () => {
  it('an import back into a module that imports this one is refused', async () => {
    // sessions.ts imports session.ts, in the same room: session importing sessions closes a cycle.
    const code = "import { SessionManager } from './sessions';\nexport const c = SessionManager;\n";
    expect(await layerErrors('src/main/core/agents/session.ts', code)).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/),
    ]);
  });

  it('a type-only import back is not a cycle (it is erased at build)', async () => {
    const code =
      "import type { SessionManager } from './sessions';\nexport type C = SessionManager;\n";
    expect(await layerErrors('src/main/core/agents/session.ts', code)).toEqual([]);
  });
});

describe('floors inside the core', () => {
  it.each([
    ['src/main/core/store/probe.ts', '../approvals/clients'],
    ['src/main/core/sandbox/probe.ts', '../agents/sessions'],
    ['src/main/core/rules/probe.ts', '../safety/warnings'],
    ['src/main/core/mediator/probe.ts', '../approvals/pipeline'],
    ['src/main/core/fs/probe.ts', '../rules/paths'],
    ['src/main/core/agents/probe.ts', '../commands/dispatch'],
    ['src/main/core/commands/probe.ts', '../core'],
  ])('%s may not import %s (a floor above, or its own)', async (file, source) => {
    expect(await layerErrors(file, importOf(source))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Floors: /),
    ]);
  });

  it('a room imports the floors below it', async () => {
    expect(
      await layerErrors(
        'src/main/core/agents/probe.ts',
        ['../approvals/pipeline', '../sandbox/launch', '../store/store', '../fs/containment']
          .map(importOf)
          .join(''),
      ),
    ).toEqual([]);
    expect(await layerErrors('src/main/core/safety/probe.ts', importOf('../rules/paths'))).toEqual(
      [],
    );
  });

  it('a test beside its unit may set up what it needs from any floor', async () => {
    expect(
      await layerErrors('src/main/core/sandbox/probe.test.ts', importOf('../agents/fs-access')),
    ).toEqual([]);
  });

  it('a test beside its unit, and the setup its room shares, may compose any layer', async () => {
    const across = ['../server/static-files', '../core/events/bus'].map(importOf).join('');
    for (const file of ['src/main/desktop/probe.test.ts', 'src/main/desktop/probe.test-support.ts'])
      expect(await layerErrors(file, across)).toEqual([]);
    expect(
      await layerErrors('src/main/core/rules/probe.test-support.ts', importOf('node:fs')),
    ).toEqual([]);
  });

  it.each(['node:fs', 'node:child_process', 'os', 'node:net'])(
    'a pure room (mediator, rules, safety) may not import %s',
    async (source) => {
      for (const room of ['mediator', 'rules', 'safety']) {
        expect(await layerErrors(`src/main/core/${room}/probe.ts`, importOf(source))).toEqual([
          expect.stringMatching(/^no-restricted-imports: .*Pure rooms/),
        ]);
      }
    },
  );

  it('a pure room computes paths and hashes', async () => {
    expect(
      await layerErrors(
        'src/main/core/rules/probe.ts',
        ['node:path', 'node:crypto'].map(importOf).join(''),
      ),
    ).toEqual([]);
  });
});
