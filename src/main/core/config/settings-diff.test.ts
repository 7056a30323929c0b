import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { sandboxWidening } from './settings-diff';
import { AgentConfig } from '../../../shared/settings';

const agent = (extra: Partial<z.input<typeof AgentConfig>> = {}) =>
  AgentConfig.parse({ command: 'a', ...extra });

describe('what loosens a sandbox', () => {
  it('names each way a change lets the agent do more', () => {
    expect(sandboxWidening(agent({ sandbox: 'read-only' }), agent())).toEqual([
      'sandbox workspace-write',
    ]);
    expect(sandboxWidening(agent(), agent({ allowUnsandboxed: true }))).toEqual([
      'running unsandboxed',
    ]);
    expect(sandboxWidening(agent(), agent({ allowUnguarded: true }))).toEqual([
      'running unguarded',
    ]);
    expect(
      sandboxWidening(agent({ allowWrite: ['/a'] }), agent({ allowWrite: ['/a', '/b'] })),
    ).toEqual(['write in /b']);
    expect(sandboxWidening(agent({ denyRead: ['/s'] }), agent())).toEqual(['read /s']);
    expect(sandboxWidening(agent(), agent({ network: 'all' }))).toEqual(['connect anywhere']);
    expect(sandboxWidening(agent({ network: 'none' }), agent())).toEqual([
      'connect to its model API',
    ]);
    expect(
      sandboxWidening(
        agent({ network: { allow: ['a.com'] } }),
        agent({ network: { allow: ['a.com', 'b.com:80'] } }),
      ),
    ).toEqual(['connect to b.com:80']);
    expect(
      sandboxWidening(
        agent({ allowUnixSockets: ['/run/a.sock'] }),
        agent({ allowUnixSockets: ['/run/a.sock', '~/.docker/run/docker.sock'] }),
      ),
    ).toEqual(['use the local socket ~/.docker/run/docker.sock']);
  });

  it('a change that only tightens it is not a loosening', () => {
    expect(
      sandboxWidening(
        agent({ allowWrite: ['/a'], network: { allow: ['a.com'] }, allowUnixSockets: ['/s'] }),
        agent({ sandbox: 'read-only', denyRead: ['/x'], network: 'none' }),
      ),
    ).toEqual([]);
    expect(
      sandboxWidening(agent({ network: 'all' }), agent({ network: { allow: ['a.com'] } })),
    ).toEqual([]);
    expect(sandboxWidening(agent(), agent({ name: 'renamed' }))).toEqual([]);
  });
});
