// The Linux notification path for real: Xvfb, a private session bus, dunst as the notification
// server, Gatehouse's freedesktop notifier (plain Node, no Electron) on a real core with a scripted
// agent. What was sent is read with dbus-monitor; buttons are pressed through dunst's own control
// (`dunstctl context` runs dunst's action menu through a dmenu stand-in that picks the action).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

const REQUIRED = ['Xvfb', 'dbus-daemon', 'dbus-monitor', 'dbus-send', 'dunst', 'dunstctl'];
const has = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
const missing = process.platform === 'linux' ? REQUIRED.filter((b) => !has(b)) : ['Linux'];
if (missing.length > 0) {
  console.warn(
    `skipped: notifications-dbus needs ${missing.join(', ')} (apt-get install xvfb dbus-x11 dunst)`,
  );
}

const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];

const ask = (toolCallId: string, command: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: { toolCallId, kind: 'execute', title: command, rawInput: { command } },
  options: OPTIONS,
});

/** A block of dbus-monitor output: its header line and the string/uint32 arguments in order. */
interface Message {
  header: string;
  member: string;
  strings: string[];
  uints: number[];
}

function parseMonitor(text: string): Message[] {
  const blocks: string[][] = [];
  for (const line of text.split('\n')) {
    if (/^(method call|method return|signal|error) /.test(line)) blocks.push([line]);
    else if (blocks.length > 0) blocks.at(-1)!.push(line);
  }
  return blocks.map(([header, ...body]) => {
    const strings: string[] = [];
    const uints: number[] = [];
    let open: string | null = null;
    // dbus-monitor prints a multi-line string as is: it runs until a line ending with a quote.
    for (const line of body) {
      if (open !== null) {
        open += `\n${line}`;
        if (line.endsWith('"')) {
          strings.push(open.slice(0, -1));
          open = null;
        }
        continue;
      }
      const str = /^\s*string "(.*)$/.exec(line);
      if (str) {
        if (str[1]!.endsWith('"')) strings.push(str[1]!.slice(0, -1));
        else open = str[1]!;
        continue;
      }
      const uint = /^\s*uint32 (\d+)$/.exec(line);
      if (uint) uints.push(Number(uint[1]));
    }
    return { header: header!, member: /member=(\w+)/.exec(header!)?.[1] ?? '', strings, uints };
  });
}

async function until<T>(
  what: string,
  probe: () => T | undefined | null | false,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

interface AgentLogLine {
  dir: 'in' | 'out';
  msg: {
    id?: number;
    method?: string;
    result?: { outcome?: { outcome: string; optionId?: string } };
  };
}

function permissionReplies(logFile: string) {
  const lines = readFileSync(logFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AgentLogLine);
  const asked = new Set(
    lines
      .filter((l) => l.dir === 'out' && l.msg.method === 'session/request_permission')
      .map((l) => l.msg.id),
  );
  return lines
    .filter((l) => l.dir === 'in' && asked.has(l.msg.id) && l.msg.result)
    .map((l) => l.msg.result!.outcome!);
}

describe.skipIf(missing.length > 0)('Linux notifications over D-Bus (dunst under Xvfb)', () => {
  const children: ChildProcess[] = [];
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let busAddress: string;
  let monitorLog = '';
  let gh: TestGatehouse;
  let presence: NotificationPresence;
  let notifier: FreedesktopNotifier;
  let folder: string;
  let agentLog: string;
  let sessionId: string;
  const votes: Array<{ requestId: string; result: PresenceVoteResult }> = [];

  const messages = () => parseMonitor(monitorLog);
  const notifyFor = (text: string) =>
    messages().find((m) => m.member === 'Notify' && m.strings.some((s) => s.includes(text)));
  const dunst = (...args: string[]) => {
    const result = spawnSync('dunstctl', args, { env, encoding: 'utf8', timeout: 10_000 });
    if (result.status !== 0) throw new Error(`dunstctl ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout.trim();
  };
  /** Presses the action with this label through dunst (its context menu, answered by our dmenu). */
  const press = (label: string) => {
    writeFileSync(join(dir, 'choice'), label);
    dunst('context');
  };

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-dbus-')));

    // X server on a free display (Xvfb picks it and writes it to fd 3).
    const xvfb = spawn(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', '1024x768x24', '-nolisten', 'tcp'],
      {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      },
    );
    children.push(xvfb);
    const display = await new Promise<string>((resolve, reject) => {
      let out = '';
      (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(`:${out.trim()}`);
      });
      xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
    });

    // A private session bus, so nothing of the machine's desktop is touched.
    const bus = spawn(
      'dbus-daemon',
      ['--session', '--nofork', `--address=unix:path=${join(dir, 'bus')}`, '--print-address=1'],
      {
        // stderr: only the fd-limit complaint of an unprivileged container.
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    children.push(bus);
    busAddress = await new Promise<string>((resolve, reject) => {
      let out = '';
      bus.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
      });
      bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
    });
    env = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: busAddress };

    // dunst, with a dmenu stand-in that records the action menu and picks the line we ask for.
    const dmenu = join(dir, 'dmenu.sh');
    writeFileSync(
      dmenu,
      `#!/bin/sh\ncat > '${dir}/menu.txt'\ngrep -m1 "^#$(cat '${dir}/choice') (" '${dir}/menu.txt'\n`,
    );
    chmodSync(dmenu, 0o755);
    writeFileSync(
      join(dir, 'dunstrc'),
      `[global]\n    dmenu = ${dmenu}\n    history_length = 100\n[urgency_low]\n    timeout = 0\n[urgency_normal]\n    timeout = 0\n[urgency_critical]\n    timeout = 0\n`,
    );
    const monitor = spawn(
      'dbus-monitor',
      ['--address', busAddress, "interface='org.freedesktop.Notifications'"],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(monitor);
    monitor.stdout!.on('data', (chunk: Buffer) => (monitorLog += chunk.toString()));
    await until(
      'dbus-monitor',
      () => monitorLog.includes('NameAcquired') || monitorLog.includes('NameLost'),
    );
    const daemon = spawn('dunst', ['-config', join(dir, 'dunstrc')], { env, stdio: 'ignore' });
    children.push(daemon);
    await until('dunst on the bus', () => {
      const r = spawnSync(
        'dbus-send',
        [
          '--session',
          '--print-reply',
          '--dest=org.freedesktop.DBus',
          '/org/freedesktop/DBus',
          'org.freedesktop.DBus.NameHasOwner',
          'string:org.freedesktop.Notifications',
        ],
        { env, encoding: 'utf8' },
      );
      return r.stdout.includes('boolean true');
    });

    // Gatehouse: a core with a scripted agent, and the Linux notifier driven by it.
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
    agentLog = join(dir, 'agent.jsonl');
    const launch = scriptedAgentLaunch(
      {
        onPrompt: {
          deny: [ask('t-deny', 'rm -rf build')],
          elsewhere: [ask('t-elsewhere', 'npm publish --access public')],
          burst: [
            {
              type: 'concurrent',
              branches: [1, 2, 3, 4, 5].map((i) => [ask(`t-burst-${i}`, `echo burst ${i}`)]),
            },
          ],
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
          // Its log lies in the real temp folder, which the sandbox replaces with its own.
          allowWrite: [dir],
        },
      },
    });
    ensureDesktopClient(gh.core.clients);
    notifier = await FreedesktopNotifier.connect({
      busAddress,
      appName: 'Gatehouse',
      desktopEntry: 'gatehouse',
    });
    presence = new NotificationPresence({
      core: gh.core,
      notifier,
      batchWindowMs: 100,
      onVote: (requestId, result) => votes.push({ requestId, result }),
      log: () => undefined,
    }).start();
    sessionId = (await gh.api.call('createSession', { agentId: 'scripted', cwd: folder }))
      .sessionId;
  });

  afterAll(async () => {
    await presence?.close();
    await gh?.close();
    for (const child of children.reverse()) await stop(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('talks to dunst: a server with actions', () => {
    expect(notifier.server.name).toBe('dunst');
    expect(notifier.supportsActions).toBe(true);
  });

  it('a request becomes a notification with Allow once / Always / Deny; Deny pressed in dunst rejects, audited from the notification surface', async () => {
    const turn = gh.api.call('prompt', { sessionId, text: 'deny' });
    const approval = await gh.nextApproval((a) => a.toolCall.toolCallId === 't-deny');

    const notify = await until('the Notify call', () => notifyFor('rm -rf build'));
    // app_name, app_icon, summary, body, then the actions as (key, label) pairs.
    // The body's second line is the command's preview as it stands when the notification is made.
    expect(notify.strings.slice(0, 4)).toEqual([
      'Gatehouse',
      '',
      'Scripted wants to run a command',
      expect.stringMatching(/^\$ rm -rf build\nPreview: .+$/),
    ]);
    expect(notify.strings.slice(4, 12)).toEqual([
      'default',
      'Open',
      'allow_once',
      'Allow once',
      'allow_always',
      'Always',
      'deny',
      'Deny',
    ]);
    const id = await until('the notification id', () => notifier.idOf(approval.requestId));
    expect(id).toBeGreaterThan(0);
    expect(dunst('count', 'displayed')).toBe('1');

    press('Deny');
    const resolved = await gh.waitForEvent(
      'permission_resolved',
      (e) => e.requestId === approval.requestId,
    );
    expect(resolved.decider).toEqual({
      type: 'person',
      clientId: 'desktop',
      surface: 'notification',
    });
    expect(resolved.reply).toEqual({
      outcome: 'selected',
      optionId: 'reject',
      optionKind: 'reject_once',
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(permissionReplies(agentLog)).toEqual([{ outcome: 'selected', optionId: 'reject' }]);

    // What dunst offered, and what it sent back.
    const menu = readFileSync(join(dir, 'menu.txt'), 'utf8');
    for (const label of ['Open', 'Allow once', 'Always', 'Deny'])
      expect(menu).toContain(`#${label} (`);
    const invoked = messages().find((m) => m.member === 'ActionInvoked' && m.uints[0] === id);
    expect(invoked?.strings).toEqual(['deny']);
    expect(votes).toContainEqual({
      requestId: approval.requestId,
      result: { ok: true, outcome: { kind: 'resolved', resolvedOptionId: 'reject' } },
    });

    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.decider).toEqual({
      type: 'person',
      clientId: 'desktop',
      surface: 'notification',
    });
    expect(detail.votes).toHaveLength(1);
    expect(detail.votes[0]).toMatchObject({
      clientId: 'desktop',
      surface: 'notification',
      identityProven: true,
      optionId: 'reject',
    });

    // The pressed notification is taken off the screen.
    await until('CloseNotification', () =>
      messages().some((m) => m.member === 'CloseNotification' && m.uints[0] === id),
    );
    await until('nothing displayed', () => dunst('count', 'displayed') === '0');
  });

  it('a request decided elsewhere has its notification withdrawn', async () => {
    const turn = gh.api.call('prompt', { sessionId, text: 'elsewhere' });
    const approval = await gh.nextApproval((a) => a.toolCall.toolCallId === 't-elsewhere');
    await until('the Notify call', () => notifyFor('npm publish --access public'));
    const id = await until('the notification id', () => notifier.idOf(approval.requestId));
    await until('displayed', () => dunst('count', 'displayed') === '1');

    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'allow' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    await until('CloseNotification', () =>
      messages().some((m) => m.member === 'CloseNotification' && m.uints[0] === id),
    );
    await until('nothing displayed', () => dunst('count', 'displayed') === '0');
    expect(notifier.idOf(approval.requestId)).toBeUndefined();
    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))!.decider).toMatchObject({
      type: 'person',
      surface: 'api',
    });
  });

  it('many requests at once become one group notification, withdrawn when they are all decided', async () => {
    const before = messages().filter((m) => m.member === 'Notify').length;
    const turn = gh.api.call('prompt', { sessionId, text: 'burst' });
    await until('five pending', () => gh.core.pipeline.pending.size === 5);
    const group = await until('the group Notify', () =>
      notifyFor('5 permission requests from Scripted'),
    );
    expect(group.strings.slice(4, 8)).toEqual(['default', 'Open', 'open', 'Open approvals']);
    expect(group.strings[3]!.split('\n')).toEqual([
      'Scripted: $ echo burst 1',
      'Scripted: $ echo burst 2',
      'Scripted: $ echo burst 3',
      '+2 more',
    ]);
    expect(messages().filter((m) => m.member === 'Notify')).toHaveLength(before + 1);

    await gh.api.call('cancelTurn', { sessionId });
    await turn;
    await until('the group withdrawn', () => dunst('count', 'displayed') === '0');
    expect(presence.visible()).toEqual([]);
  });
});
