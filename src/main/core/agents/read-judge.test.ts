import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rule } from '../../../shared/rules';
import type { PermissionMode } from '../../../shared/domain';
import type { SessionContext } from '../approvals/pipeline';
import { createReadJudge } from './read-judge';

const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-read-judge-')));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function judge(
  path: string,
  rules: Rule[] = [],
  mode: PermissionMode = 'default',
  additionalDirectories: string[] = [],
) {
  const session: Partial<SessionContext> = {
    sessionId: 's',
    agentId: 'a',
    cwd: folder,
    additionalDirectories,
    mode,
  };
  return createReadJudge({
    rules: () => rules,
    grants: () => [],
    now: () => 0,
    homeDir: '/home/nobody',
  })(session as SessionContext, path);
}

describe('read judge', () => {
  it('allows the session folder and refuses the rest by default', () => {
    expect(judge(join(folder, 'src/a.ts'))).toEqual({
      allowed: true,
      decider: 'inside session folder',
    });
    expect(judge('/etc/hosts')).toEqual({
      allowed: false,
      reason: 'outside the session folder and no rule allows it',
    });
  });

  it('allows the folders the session was started with besides its own, their secrets still refused', () => {
    const extra = '/srv/shared-lib';
    expect(judge(join(extra, 'a.ts'), [], 'default', [extra])).toEqual({
      allowed: true,
      decider: 'inside an additional folder of the session',
    });
    expect(judge(join(extra, 'a.ts')).allowed).toBe(false);
    expect(judge('/srv/shared-lib-2/a.ts', [], 'default', [extra]).allowed).toBe(false);
    expect(judge(join(extra, '.env'), [], 'default', [extra]).allowed).toBe(false);
    // A deny rule naming a path there still refuses.
    const deny: Rule = { id: 'no', action: 'deny', toolKind: 'read', path: `${extra}/private/**` };
    expect(judge(join(extra, 'private/k.txt'), [deny], 'default', [extra])).toMatchObject({
      allowed: false,
    });
  });

  it('refuses secret files inside the folder, even in bypass mode or under a rule without a path', () => {
    const env = join(folder, '.env');
    expect(judge(env).allowed).toBe(false);
    expect(judge(env, [], 'bypassPermissions').allowed).toBe(false);
    expect(judge(env, [{ id: 'reads', action: 'allow', toolKind: 'read' }]).allowed).toBe(false);
    expect(judge(env, [{ id: 'env', action: 'allow', toolKind: 'read', path: '.env' }])).toEqual({
      allowed: true,
      decider: 'rule env',
    });
  });

  it('a secret stays shut under a glob of wildcards alone (the default read rule)', () => {
    const key = join(folder, 'certs/server.key');
    const everything: Rule = { id: 'all', action: 'allow', toolKind: 'read', path: '**' };
    expect(judge(key, [everything])).toMatchObject({ allowed: false });
    expect(judge(join(folder, 'src/a.ts'), [everything])).toEqual({
      allowed: true,
      decider: 'rule all',
    });
    expect(
      judge(key, [{ id: 'keys', action: 'allow', toolKind: 'read', path: 'certs/*.key' }]),
    ).toEqual({ allowed: true, decider: 'rule keys' });
  });

  it('a deny rule refuses, and an ask rule refuses too (reads never ask a person)', () => {
    const file = join(folder, 'private/notes.md');
    expect(judge(file, [{ id: 'no', action: 'deny', path: 'private/**' }])).toMatchObject({
      allowed: false,
    });
    expect(judge(file, [{ id: 'ask', action: 'ask', path: 'private/**' }])).toMatchObject({
      allowed: false,
    });
  });

  it('an allow rule or bypass mode opens a path outside the folder', () => {
    expect(
      judge('/etc/hosts', [{ id: 'hosts', action: 'allow', toolKind: 'read', path: '/etc/hosts' }]),
    ).toEqual({
      allowed: true,
      decider: 'rule hosts',
    });
    expect(judge('/etc/hosts', [], 'bypassPermissions')).toEqual({
      allowed: true,
      decider: 'mode bypassPermissions',
    });
  });
});
