// A person's "always" for the first words of a command, through real requests of our scripted
// agent: the prefix is checked when the vote arrives (refused with why, audited, the request still
// waiting), remembered and audited when it is sound, and then decides the agent's next requests —
// every line of the rules' table, allowed by the grant alone or asked again.
import { afterEach, describe, expect, it } from 'vitest';
import { NPM_TEST_TABLE } from '../../src/main/core/rules/prefix-grant.test-support';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const OPTIONS = [
  { optionId: 'always', name: 'Always', kind: 'allow_always' as const },
  { optionId: 'once', name: 'Once', kind: 'allow_once' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];
const run = (command: string, i: number): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId: `sh-${i}`, kind: 'execute', title: command, rawInput: { command } },
  options: OPTIONS,
});

describe('prefix grants through real requests', () => {
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it('"always" for `npm test …` lets `npm test -- foo` through, and only what the table says', async () => {
    const lines = NPM_TEST_TABLE.map(([command]) => command);
    session = await startScriptedSession(
      { prompts: [[run('npm test', 0), ...lines.map((c, i) => run(c, i + 1))]] },
      { agent: { preview: false } },
    );
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'test it' });
    const first = await gh.nextApproval();
    expect(first.command).toMatchObject({
      command: 'npm test',
      prefix: { words: ['npm', 'test'], least: 2 },
    });

    // A bare program, or more words than the command has: refused with why, nothing remembered.
    const vote = (prefixWords: number) =>
      gh.api.call('vote', {
        requestId: first.requestId,
        optionId: 'always',
        grant: { scope: 'project', prefixWords },
      });
    await expect(vote(1)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/`npm …` would run anything/),
    });
    await expect(vote(3)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/has 2 words, fewer than the 3 picked/),
    });
    await expect(vote(0)).rejects.toMatchObject({ status: 400 });
    expect(gh.core.pipeline.pending.get(first.requestId)).toBeDefined();
    expect(await gh.api.call('listGrants', {})).toEqual([]);

    expect(await vote(2)).toEqual({ kind: 'resolved', resolvedOptionId: 'always' });

    // Every line the grant does not cover is asked; the person says no to each.
    const asked: string[] = [];
    while (asked.length < NPM_TEST_TABLE.filter(([, covered]) => !covered).length) {
      const next = await gh.nextApproval((a) => a.requestId !== first.requestId);
      asked.push(next.command?.command ?? '');
      await gh.api.call('vote', { requestId: next.requestId, optionId: 'no' });
    }
    expect(await turn).toEqual({ stopReason: 'end_turn' });

    await gh.core.store.flush();
    const items = (await gh.core.store.history({ limit: 200 })).items.reverse();
    expect(items).toHaveLength(lines.length + 1);
    const [grant] = await gh.api.call('listGrants', {});
    expect(grant?.grant).toMatchObject({
      scope: 'project',
      commands: [{ argv: ['npm', 'test'], match: 'prefix', writes: [], env: {} }],
    });
    const byGrant = { type: 'grant', grantId: grant?.grant.id };
    const seen = items.slice(1).map((item, i) => [lines[i], item.decider]);
    expect(seen).toEqual(
      NPM_TEST_TABLE.map(([command, covered]) => [
        command,
        covered ? byGrant : { type: 'person', clientId: expect.any(String), surface: 'api' },
      ]),
    );
    expect(asked).toEqual(NPM_TEST_TABLE.filter(([, c]) => !c).map(([command]) => command));

    // Audited: the refusals, the grant itself, and the decision that made it.
    const refusals = await gh.core.store.events({ type: 'grant_refused' });
    expect(refusals).toHaveLength(2);
    expect(JSON.stringify(refusals)).toContain('would run anything');
    const made = await gh.core.store.historyDetail(first.requestId);
    expect(made?.reason).toContain(`remembered as grant ${grant?.grant.id} (project)`);
    const saved = await gh.core.store.listGrants({ includeInactive: true });
    expect(saved.map((g) => g.grant)).toEqual([grant?.grant]);
    expect((await gh.core.store.verifyChain()).ok).toBe(true);
  });
});
