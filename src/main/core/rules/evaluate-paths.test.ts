// The evaluation of path rules: globs, links, an injected file system, a linked session folder.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, PathResolver, type RequestFacts, type Rule } from '.';
import { evaluationFile } from './helpers.test-support';

const { box, state, req, edit, exec } = evaluationFile();

describe('path rules', () => {
  it('relative globs are relative to the session folder and never match outside it', () => {
    const rules: Rule[] = [
      { id: 'src', action: 'allow', path: 'src/**', toolKind: ['edit', 'read'] },
    ];
    expect(evaluate(edit('src/a.ts'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit(path.join(box.root, 'src', 'deep', 'x.ts')), state(rules)).verdict).toBe(
      'allow',
    );
    expect(evaluate(edit('lib/a.ts'), state(rules)).verdict).toBe('ask');
    // `src/escape` is inside lexically but its real path is outside: an allow never follows it
    expect(evaluate(edit('src/escape/secret.txt'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('src/dangling'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('src/escape/../x.txt'), state(rules)).verdict).toBe('ask');
    // a session opened elsewhere: `src/**` is about THAT folder
    expect(
      evaluate(
        { ...edit(path.join(box.root, 'src', 'a.ts')), sessionCwd: box.outside },
        state(rules),
      ).verdict,
    ).toBe('ask');
  });

  it('deny globs match the lexical OR the real path', () => {
    const rules: Rule[] = [
      { id: 'allow-all-edits', action: 'allow', toolKind: 'edit' },
      { id: 'no-secrets', action: 'deny', path: path.join(box.outside, '**') },
      { id: 'no-src-escape', action: 'deny', path: 'src/escape/**' },
    ];
    // real path outside → denied by the absolute glob
    expect(evaluate(edit('src/inlink'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('src/dangling'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-secrets' },
    });
    expect(evaluate(edit('../outside/inner/secret.txt'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-secrets' },
    });
    // lexical path only: `src/escape/../x.txt` is lexically src/x.txt but really outside/x.txt
    expect(evaluate(edit('src/escape/../x.txt'), state(rules)).verdict).toBe('deny');
  });

  it('absolute globs: their literal base is resolved too; ~/ is the home directory', () => {
    const resolver = new PathResolver({ homedir: box.outside, caseInsensitive: false });
    const viaLink: Rule[] = [
      { id: 'via-link', action: 'deny', path: path.join(box.root, 'src', 'escape', '**') },
    ];
    expect(
      evaluate(edit(path.join(box.outside, 'inner', 'secret.txt')), state(viaLink), { resolver })
        .verdict,
    ).toBe('deny');
    const home: Rule[] = [{ id: 'home', action: 'deny', path: '~/inner/**' }];
    expect(evaluate(edit('src/escape/secret.txt'), state(home), { resolver }).verdict).toBe('deny');
    expect(evaluate(edit('src/a.ts'), state(home), { resolver }).verdict).toBe('ask');
    const etc: Rule[] = [
      { id: 'etc', action: 'deny', path: '/etc/**', toolKind: ['read', 'edit'] },
    ];
    expect(
      evaluate(req({ toolKind: 'read', paths: ['/etc/passwd'] }), state(etc), { resolver }).verdict,
    ).toBe('deny');
  });

  it('dot-files: deny globs catch them, allow globs must name them', () => {
    const rules: Rule[] = [
      { id: 'allow-src', action: 'allow', path: 'src/**', toolKind: 'edit' },
      { id: 'allow-workflows', action: 'allow', path: '.github/**', toolKind: 'edit' },
      { id: 'allow-all-star', action: 'allow', path: '*', toolKind: 'edit' },
    ];
    expect(evaluate(edit('src/a.ts'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('src/.env'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('src/.hidden/x.ts'), state(rules)).verdict).toBe('ask');
    expect(evaluate(edit('.github/workflows/ci.yml'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('README.md'), state(rules)).verdict).toBe('allow');
    expect(evaluate(edit('.npmrc'), state(rules)).verdict).toBe('ask');
    const explicit: Rule[] = [{ id: 'env', action: 'allow', path: 'src/.env', toolKind: 'edit' }];
    expect(evaluate(edit('src/.env'), state(explicit)).verdict).toBe('allow');

    const deny: Rule[] = [
      { id: 'allow-edits', action: 'allow', toolKind: 'edit' },
      { id: 'no-src-secrets', action: 'deny', path: 'src/*' },
      { id: 'no-keys', action: 'deny', path: '**/*.key' },
    ];
    expect(evaluate(edit('src/.env'), state(deny)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'no-src-secrets',
    });
    expect(evaluate(edit('a/.b/.c.key'), state(deny)).decidedBy).toEqual({
      type: 'rule',
      ruleId: 'no-keys',
    });
  });

  it('deny globs are case-insensitive where the file system is', () => {
    const rules: Rule[] = [{ id: 'no-env', action: 'deny', path: '**/.env' }];
    const ci = new PathResolver({ caseInsensitive: true });
    const cs = new PathResolver({ caseInsensitive: false });
    expect(evaluate(edit('src/.ENV'), state(rules), { resolver: ci }).verdict).toBe('deny');
    expect(evaluate(edit('src/.ENV'), state(rules), { resolver: cs }).verdict).toBe('ask');
  });

  it('kind-restricted path rules: an "other" or unlabelled request may be anything, so deny still applies', () => {
    const rules: Rule[] = [
      { id: 'no-env-edits', action: 'deny', path: '**/.env', toolKind: 'edit' },
    ];
    expect(evaluate(req({ toolKind: 'read', paths: ['src/.env'] }), state(rules)).verdict).toBe(
      'ask',
    );
    expect(evaluate(req({ toolKind: 'other', paths: ['src/.env'] }), state(rules)).verdict).toBe(
      'deny',
    );
    expect(evaluate(req({ paths: ['src/.env'] }), state(rules)).verdict).toBe('deny');
  });

  it('shell redirections are writes that edit path rules see', () => {
    const rules: Rule[] = [
      { id: 'allow-echo', action: 'allow', command: 'echo' },
      { id: 'no-env', action: 'deny', path: '**/.env', toolKind: ['edit'] },
      { id: 'no-etc', action: 'deny', path: '/etc/**' },
    ];
    expect(evaluate(exec('echo SECRET=1 > src/.env'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-env' },
    });
    expect(evaluate(exec('echo x >> /etc/hosts'), state(rules))).toMatchObject({
      verdict: 'deny',
      decidedBy: { ruleId: 'no-etc' },
    });
    expect(evaluate(exec('echo x > "$OUT"'), state(rules))).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'rule' },
    });
    expect(evaluate(exec('echo x'), state(rules)).verdict).toBe('allow');
    // after `cd`, a relative target could be anywhere: might match, so ask even under bypass
    expect(
      evaluate(exec('cd /etc && echo x > hosts'), state(rules, 'bypassPermissions')),
    ).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'rule' },
    });
    expect(
      evaluate(exec('echo x > hosts && cd /etc'), state(rules, 'bypassPermissions')).verdict,
    ).toBe('allow');
    expect(evaluate(exec('echo x > notes.txt'), state(rules))).toMatchObject({
      verdict: 'ask',
      decidedBy: { type: 'default' },
    });
  });

  it('move: every path must be allowed; any denied path denies', () => {
    const rules: Rule[] = [
      { id: 'src', action: 'allow', path: 'src/**', toolKind: 'move' },
      { id: 'no-lib', action: 'deny', path: 'lib/**' },
    ];
    expect(
      evaluate(req({ toolKind: 'move', paths: ['src/a.ts', 'src/b.ts'] }), state(rules)).verdict,
    ).toBe('allow');
    expect(
      evaluate(req({ toolKind: 'move', paths: ['src/a.ts', 'docs/b.ts'] }), state(rules)).verdict,
    ).toBe('ask');
    expect(
      evaluate(req({ toolKind: 'move', paths: ['src/a.ts', 'lib/b.ts'] }), state(rules)).verdict,
    ).toBe('deny');
  });
});

describe('path resolution with an injected file system', () => {
  // A tiny fake FS: existing real paths, and symlinks (name -> target).
  function fakeFs(files: string[], links: Record<string, string>) {
    const exists = new Set(files);
    const realpath = (p: string, depth = 0): string => {
      const parts = path.posix.normalize(p).split('/').filter(Boolean);
      let cur = '';
      let hops = 0;
      for (let i = 0; i < parts.length; i++) {
        const next = `${cur}/${parts[i]}`;
        if (parts[i] === '..') {
          cur = path.posix.dirname(cur === '' ? '/' : cur);
          continue;
        }
        const link = links[next];
        if (link !== undefined) {
          hops += 1;
          if (hops > 10 || depth > 10) throw Object.assign(new Error('ELOOP'), { code: 'ELOOP' });
          const rest = parts.slice(i + 1).join('/');
          return realpath(rest ? `${link}/${rest}` : link, depth + 1);
        }
        if (!exists.has(next)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        cur = next;
      }
      return cur === '' ? '/' : cur;
    };
    const readlink = (p: string): string | null => {
      if (links[p] !== undefined) return links[p];
      if (exists.has(p)) return null;
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    return { realpath, readlink };
  }

  it('follows links in existing parents, dangling links, and reports loops as unresolvable', () => {
    const r = new PathResolver({
      path: path.posix,
      fs: fakeFs(['/s', '/s/src', '/o'], {
        '/s/src/out': '/o',
        '/s/src/ghost': '/o/new.txt',
        '/s/loop': '/s/loop2',
        '/s/loop2': '/s/loop',
      }),
    });
    expect(r.resolve('src/out/x.txt', '/s')).toEqual({
      input: 'src/out/x.txt',
      lexical: '/s/src/out/x.txt',
      real: '/o/x.txt',
    });
    expect(r.resolve('src/ghost', '/s').real).toBe('/o/new.txt');
    expect(r.resolve('src/new/deep.txt', '/s').real).toBe('/s/src/new/deep.txt');
    expect(r.resolve('loop/x', '/s').real).toBeNull();
  });

  it('an unresolvable path is never allowed but can still be denied by its lexical path', () => {
    const resolver = new PathResolver({
      path: path.posix,
      fs: fakeFs(['/s'], { '/s/loop': '/s/loop2', '/s/loop2': '/s/loop' }),
    });
    const f: RequestFacts = {
      agentId: 'a',
      sessionId: 's',
      sessionCwd: '/s',
      toolKind: 'edit',
      paths: ['loop/x'],
    };
    expect(
      evaluate(f, state([{ id: 'all', action: 'allow', path: '**' }], 'acceptEdits'), { resolver })
        .verdict,
    ).toBe('ask');
    expect(
      evaluate(f, state([{ id: 'no-loop', action: 'deny', path: 'loop/**' }]), { resolver })
        .verdict,
    ).toBe('deny');
  });
});

describe('symlinked session folder', () => {
  it('a session opened through a symlink still sees its own files as inside', () => {
    const link = `${box.root}-link`;
    fs.symlinkSync(box.root, link);
    try {
      const r = evaluate({ ...edit('src/a.ts'), sessionCwd: link }, state([], 'acceptEdits'));
      expect(r.verdict).toBe('allow');
      const r2 = evaluate(
        { ...edit(path.join(link, 'src', 'a.ts')), sessionCwd: box.root },
        state([{ id: 's', action: 'allow', path: 'src/*', toolKind: 'edit' }]),
      );
      expect(r2.verdict).toBe('allow');
    } finally {
      fs.unlinkSync(link);
    }
  });
});
