// The agent's session options over HTTP: listed for every client, set by a person through
// session/set_config_option, never to a value where the agent stops asking; a hostile agent's
// flood of options stays bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_LIMITS } from '../../src/shared/session-config';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import { OPTIONS_AGENT } from '../support/session-options';

let session: ScriptedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const setOptionCalls = (s: ScriptedSession) =>
  s.log().filter((l) => l.dir === 'in' && l.msg.method === 'session/set_config_option');

describe('session options over HTTP', () => {
  it('lists the options to every client and sets one a person chooses', async () => {
    session = await startScriptedSession(OPTIONS_AGENT);
    const { gh, sessionId } = session;
    const other = await gh.client({ paired: false });
    const [listed] = await other.call('listSessions', {});
    expect(listed?.configOptions?.map((o) => [o.id, o.currentValue, o.guarded])).toEqual([
      ['model', 'fast', false],
      ['approval_policy', 'ask', true],
      ['thinking', false, false],
    ]);
    const approvals = listed?.configOptions?.[1];
    expect(
      approvals?.type === 'select' && approvals.values.map((v) => [v.value, v.refused ?? false]),
    ).toEqual([
      ['ask', false],
      ['yolo', true],
    ]);

    const changed = gh.waitForEvent(
      'session_state',
      (e) => e.session.configOptions?.[0]?.currentValue === 'smart',
    );
    const info = await gh.api.call('setSessionOption', {
      sessionId,
      configId: 'model',
      value: 'smart',
    });
    expect(info.configOptions?.[0]?.currentValue).toBe('smart');
    await changed;
    await gh.api.call('setSessionOption', { sessionId, configId: 'thinking', value: true });
    expect((await other.call('listSessions', {}))[0]?.configOptions?.[2]?.currentValue).toBe(true);
    expect(setOptionCalls(session).length).toBe(2);
  });

  it('refuses a value that reads as the agent no longer asking, and what the agent never offered', async () => {
    session = await startScriptedSession(OPTIONS_AGENT);
    const { gh, sessionId } = session;
    await expect(
      gh.api.call('setSessionOption', { sessionId, configId: 'approval_policy', value: 'yolo' }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      gh.api.call('setSessionOption', { sessionId, configId: 'model', value: 'huge' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      gh.api.call('setSessionOption', { sessionId, configId: 'nope', value: 'x' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      gh.api.call('setSessionOption', { sessionId, configId: 'thinking', value: 'on' }),
    ).rejects.toMatchObject({ status: 400 });
    // None of these reached the agent.
    expect(setOptionCalls(session)).toEqual([]);
  });

  it('bounds an agent advertising 10,000 options', async () => {
    session = await startScriptedSession({
      floodConfigOptions: { count: 10_000, labelChars: 50 },
      modeConfigOption: true,
      modes: [
        { id: 'default', name: 'Default' },
        { id: 'bypassPermissions', name: 'Bypass permissions' },
      ],
    });
    const [listed] = await session.gh.api.call('listSessions', {});
    expect(listed?.configOptions).toHaveLength(CONFIG_LIMITS.options);
    expect(listed?.configOptions?.[0]).toMatchObject({ id: 'mode', guarded: true });
  });

  it('cuts huge labels and drops ids too long to send back', async () => {
    session = await startScriptedSession({
      floodConfigOptions: { count: 3, labelChars: 300_000 },
      configOptions: [
        { id: 'z'.repeat(5_000), name: 'long id', type: 'boolean', currentValue: false },
      ],
    });
    const [listed] = await session.gh.api.call('listSessions', {});
    const options = listed?.configOptions ?? [];
    expect(options.map((o) => o.id)).toEqual(['flood-0', 'flood-1', 'flood-2']);
    for (const option of options) {
      expect(option.name.length).toBeLessThanOrEqual(CONFIG_LIMITS.name);
      expect(option.description?.length).toBeLessThanOrEqual(CONFIG_LIMITS.description);
    }
  });
});
