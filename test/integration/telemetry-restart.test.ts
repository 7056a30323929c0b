// The export after a restart: a core closed while the collector was down leaves the decisions it
// could not send after the saved cursor; the next core on the home sends exactly those.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../src/main/core/commands/dispatch';
import { createCore, type Core } from '../../src/main/core/core';
import type { Caller } from '../../src/main/core/approvals/clients';
import { Settings } from '../../src/shared/settings';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { exportCursor, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';

const desktop: Caller = {
  clientId: 'desktop',
  identityProven: true,
  paired: true,
  fromLoopback: true,
  surface: 'dialog',
  transport: 'ipc',
};

const run = (id: string, command: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId: id, kind: 'execute', title: command, rawInput: { command } },
  options: [
    { optionId: 'go', name: 'Go', kind: 'allow_once' },
    { optionId: 'stop', name: 'Stop', kind: 'reject_once' },
  ],
});

describe('OpenTelemetry export across a restart', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup.length = 0;
  });

  it('the next core resumes from the saved cursor: nothing skipped, nothing sent twice', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-otel-restart-')));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const receiver: OtlpReceiver = await startOtlpReceiver();
    cleanup.push(() => receiver.close());
    const launch = scriptedAgentLaunch({
      prompts: [[run('a', 'git status')], [run('b', 'git status'), run('c', 'rm -rf x')]],
    });
    const settings = Settings.parse({
      agents: {
        s: {
          command: launch.command,
          args: launch.args,
          env: launch.env as Record<string, string>,
        },
      },
      rules: [
        { id: 'git-ok', action: 'allow', command: 'git status' },
        { id: 'no-rm', action: 'deny', command: 'rm -rf' },
      ],
      telemetry: {
        otlp: { endpoint: receiver.url, exportDelayMs: 20, retryDelayMs: 100 },
      },
    });
    const home = join(root, 'home');
    const call = async (core: Core, name: string, input: unknown) => {
      const out = await dispatch(core.handlers, name, input, desktop);
      if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out)}`);
      return out.result as { sessionId: string };
    };

    const first = await createCore({ home, settings });
    let firstClosed = false;
    cleanup.push(() => (firstClosed ? undefined : first.close()));
    const { sessionId } = await call(first, 'createSession', { agentId: 's', cwd: root });
    await call(first, 'prompt', { sessionId, text: 'one' });
    const [sent] = await receiver.waitForLogs(1, (l) => l.eventName === 'gatehouse.decision');
    // The core moves its cursor when the collector's answer arrives.
    const sentSeq = sent!.attributes['gatehouse.audit.seq'] as number;
    await vi.waitFor(() => expect(exportCursor(home)).toBeGreaterThanOrEqual(sentSeq));

    await receiver.down();
    await call(first, 'prompt', { sessionId, text: 'two' });
    const decided = (await first.store.history({ limit: 10 })).items
      .map((i) => i.requestId)
      .reverse();
    expect(decided).toHaveLength(3);
    await first.close();
    firstClosed = true;
    expect(receiver.logs.filter((l) => l.eventName === 'gatehouse.decision')).toHaveLength(1);

    await receiver.up();
    const second = await createCore({ home, settings });
    cleanup.push(() => second.close());
    const decisions = await receiver.waitForLogs(3, (l) => l.eventName === 'gatehouse.decision');
    expect(decisions.map((d) => d.attributes['gatehouse.request.id'])).toEqual(decided);
    expect(decisions.map((d) => d.attributes['gatehouse.decider.ref'])).toEqual([
      'git-ok',
      'git-ok',
      'no-rm',
    ]);
    await receiver.waitForLogs(3, (l) => l.eventName === 'gatehouse.request');
    const seqs = receiver.logs.map((l) => l.attributes['gatehouse.audit.seq']);
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
