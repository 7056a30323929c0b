// A reply field in a Linux notification: a notification server on a private session bus that
// advertises `inline-reply` (as Plasma does) is offered "Reject with a reason…", and the words it
// sends back in NotificationReplied reject the request with them — on a real core, with a scripted
// agent. Words signalled by another client of the bus than the server are not a vote.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureDesktopClient,
  FreedesktopNotifier,
  NotificationPresence,
  type PresenceVoteResult,
} from '../../src/main/presence';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';

const missing =
  process.platform !== 'linux'
    ? ['Linux']
    : spawnSync('sh', ['-c', 'command -v dbus-daemon']).status === 0
      ? []
      : ['dbus-daemon'];

interface RawBus {
  requestName(name: string, flags: number, cb: (error: unknown, code: number) => void): void;
  exportInterface(obj: EventEmitter, path: string, iface: unknown): void;
  connection: { end(): void };
}
const dbusNative = createRequire(import.meta.url)('@homebridge/dbus-native') as {
  createClient(options: { busAddress: string }): RawBus;
};

const PATH = '/org/freedesktop/Notifications';
const IFACE = {
  name: 'org.freedesktop.Notifications',
  methods: {
    GetCapabilities: ['', 'as'],
    GetServerInformation: ['', 'ssss'],
    Notify: ['susssasa{sv}i', 'u'],
    CloseNotification: ['u', ''],
  },
  signals: { ActionInvoked: ['us'], NotificationClosed: ['uu'], NotificationReplied: ['us'] },
};

interface Shown {
  id: number;
  summary: string;
  body: string;
  actions: string[];
  hints: Map<string, unknown>;
}

/** A notification server that shows nothing: it records what it is sent and signals as told. */
async function fakeServer(busAddress: string, name: string | null) {
  const bus = dbusNative.createClient({ busAddress });
  const shown: Shown[] = [];
  const closed: number[] = [];
  const obj = new EventEmitter() as EventEmitter & Record<string, unknown>;
  let next = 1;
  Object.assign(obj, {
    GetCapabilities: () => ['actions', 'body', 'inline-reply'],
    GetServerInformation: () => ['fake-plasma', 'test', '1.0', '1.2'],
    Notify: (...args: unknown[]) => {
      const [, replaces, , summary, body, actions, hints] = args as [
        string,
        number,
        string,
        string,
        string,
        string[],
        Array<[string, [unknown, unknown[]]]>,
      ];
      const id = replaces || next++;
      shown.push({
        id,
        summary,
        body,
        actions,
        hints: new Map(hints.map(([k, [, [v]]]) => [k, v])),
      });
      return id;
    },
    CloseNotification: (id: number) => {
      closed.push(id);
    },
  });
  bus.exportInterface(obj, PATH, IFACE);
  if (name)
    await new Promise<void>((resolve, reject) =>
      bus.requestName(name, 0x4, (error, code) =>
        error || code !== 1 ? reject(new Error(`RequestName: ${String(code)}`)) : resolve(),
      ),
    );
  return { shown, closed, signal: (...args: unknown[]) => obj.emit(...(args as [string])), bus };
}

async function until<T>(what: string, probe: () => T | undefined | null | false): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];
const ask = (toolCallId: string, command: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId, kind: 'execute', title: command, rawInput: { command } },
  options: OPTIONS,
});

describe.skipIf(missing.length > 0)('a notification reply field over D-Bus', () => {
  let dir: string;
  let daemon: ChildProcess;
  let busAddress: string;
  let server: Awaited<ReturnType<typeof fakeServer>>;
  let gh: TestGatehouse;
  let presence: NotificationPresence;
  let notifier: FreedesktopNotifier;
  let folder: string;
  let agentLog: string;
  let sessionId: string;
  const votes: Array<{ requestId: string; result: PresenceVoteResult }> = [];

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-reply-')));
    daemon = spawn(
      'dbus-daemon',
      ['--session', '--nofork', `--address=unix:path=${join(dir, 'bus')}`, '--print-address=1'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    busAddress = await new Promise<string>((resolve, reject) => {
      let out = '';
      daemon.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
      });
      daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
    });
    server = await fakeServer(busAddress, 'org.freedesktop.Notifications');

    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
    agentLog = join(dir, 'agent.jsonl');
    const launch = scriptedAgentLaunch(
      {
        onPrompt: {
          reply: [ask('t-reply', 'npm run migrate -- --env prod')],
          forged: [ask('t-forged', 'git push --force')],
        },
      },
      { logFile: agentLog },
    );
    gh = await startGatehouse({
      agents: {
        scripted: {
          name: 'Scripted',
          command: launch.command,
          args: launch.args,
          env: launch.env as Record<string, string>,
          allowWrite: [dir],
        },
      },
    });
    ensureDesktopClient(gh.core.clients);
    notifier = await FreedesktopNotifier.connect({ busAddress });
    presence = new NotificationPresence({
      core: gh.core,
      notifier,
      batchWindowMs: 0,
      onVote: (requestId, result) => votes.push({ requestId, result }),
      log: () => undefined,
    }).start();
    sessionId = (await gh.api.call('createSession', { agentId: 'scripted', cwd: folder }))
      .sessionId;
  });

  afterAll(async () => {
    await presence?.close();
    await gh?.close();
    server?.bus.connection.end();
    if (daemon && daemon.exitCode === null) {
      const exited = new Promise((r) => daemon.once('exit', r));
      daemon.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('offers the reply field to a server that shows one, and its words reject with them', async () => {
    expect(notifier.supportsReply).toBe(true);
    const turn = gh.api.call('prompt', { sessionId, text: 'reply' });
    const approval = await gh.nextApproval((a) => a.toolCall.toolCallId === 't-reply');
    const shown = await until('the Notify call', () =>
      server.shown.find((n) => n.body.includes('npm run migrate')),
    );
    // The reply is the `inline-reply` action, after the buttons, with its placeholder.
    expect(shown.actions).toEqual([
      'default',
      'Open',
      'allow_once',
      'Allow once',
      'deny',
      'Deny',
      'inline-reply',
      'Reject with a reason…',
    ]);
    expect(shown.hints.get('x-kde-reply-placeholder-text')).toBe(
      'Tell the agent what to do instead',
    );
    // Gatehouse has heard back the id the server gave it.
    await until('the notification id', () => notifier.idOf(approval.requestId) === shown.id);

    server.signal('NotificationReplied', shown.id, '  use the staging database \n');
    const resolved = await until('the request decided', () =>
      gh.events.find(
        (e): e is Extract<typeof e, { type: 'permission_resolved' }> =>
          e.type === 'permission_resolved' && e.requestId === approval.requestId,
      ),
    );
    expect(resolved.reply).toEqual({
      outcome: 'selected',
      optionId: 'reject',
      optionKind: 'reject_once',
    });
    expect(resolved.decider).toEqual({
      type: 'person',
      clientId: 'desktop',
      surface: 'notification',
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(votes).toContainEqual({
      requestId: approval.requestId,
      result: { ok: true, outcome: { kind: 'resolved', resolvedOptionId: 'reject' } },
    });
    // Taken off the screen once answered.
    await until('CloseNotification', () => server.closed.includes(shown.id));
    const replies = readFileSync(agentLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { dir: string; msg: { result?: { outcome?: unknown } } })
      .filter((l) => l.dir === 'in' && l.msg.result?.outcome)
      .map((l) => l.msg.result!.outcome);
    // The agent is told the reject with the words, where an agent that reads them finds them.
    expect(replies).toContainEqual({
      outcome: 'selected',
      optionId: 'reject',
      _meta: { 'gatehouse/rejectMessage': 'use the staging database' },
    });
    // Audited with the decision, as typed less the spaces around it.
    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))?.message).toBe(
      'use the staging database',
    );
  });

  it('words signalled by another client of the bus are not a vote', async () => {
    // A session of its own: the first one hands the words it was told on with its next prompt.
    const fresh = await gh.api.call('createSession', { agentId: 'scripted', cwd: folder });
    const turn = gh.api.call('prompt', { sessionId: fresh.sessionId, text: 'forged' });
    const approval = await gh.nextApproval((a) => a.toolCall.toolCallId === 't-forged');
    const shown = await until('the Notify call', () =>
      server.shown.find((n) => n.body.includes('git push --force')),
    );
    await until('the notification id', () => notifier.idOf(approval.requestId) === shown.id);
    // Any process of the person's can connect to the session bus and send this signal.
    const impostor = await fakeServer(busAddress, null);
    impostor.signal('NotificationReplied', shown.id, 'fine, allow it');
    impostor.signal('ActionInvoked', shown.id, 'allow_once');
    // The real server's reply, sent after them, is the one vote: the impostor's words and button
    // were never counted.
    server.signal('NotificationReplied', shown.id, 'keep the history');
    await until('the request decided', () =>
      gh.events.some((e) => e.type === 'permission_resolved' && e.requestId === approval.requestId),
    );
    expect(votes.filter((v) => v.requestId === approval.requestId)).toEqual([
      {
        requestId: approval.requestId,
        result: { ok: true, outcome: { kind: 'resolved', resolvedOptionId: 'reject' } },
      },
    ]);
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    impostor.bus.connection.end();
  });
});
