// The adversary Gatehouse exists for: an agent that looks for Gatehouse's secrets and calls its API
// to approve its own request. The core runs as `npm run headless` does, with the token in its own
// environment (the worst case: the agent can read its parent's /proc environ).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../src/renderer/src/api/http-client';
import { databasePath } from '../../src/main/core/store/data-folder';

const hostileAgent = resolve('test/support/agents/hostile-agent.ts');

interface Report {
  ownGatehouseVariables: string[];
  parentEnvironRead: boolean;
  tokenFound: boolean;
  homeFound: string | null;
  homeFilesRead: string[];
  port: number | null;
  attempts: { what: string; status: number | null; body: string }[];
  outcome: unknown;
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a hostile agent against the headless core', () => {
  const token = randomBytes(24).toString('base64url');
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-hostile-home-'));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-hostile-work-')));
  const reportFile = join(mkdtempSync(join(tmpdir(), 'gatehouse-hostile-report-')), 'report.json');
  const sandboxedReportFile = join(resolve(reportFile, '..'), 'sandboxed.json');
  let core: ChildProcess;
  let output = '';
  let origin = '';
  let person: HttpApi;

  let port = 0;

  beforeAll(async () => {
    // A free port known before the core starts, so the sandboxed agent can be told it.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    port = (probe.address() as { port: number }).port;
    await new Promise<void>((done) => probe.close(() => done()));
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          hostile: {
            command: process.execPath,
            args: [hostileAgent],
            env: { HOSTILE_AGENT_REPORT: reportFile },
            // Unsandboxed on purpose: this tests the API's own defence against an agent that found
            // the token and the port.
            sandbox: 'off',
          },
          // The same agent in the default sandbox, told where to look when it finds nothing.
          'hostile-sandboxed': {
            command: process.execPath,
            args: [hostileAgent],
            env: {
              HOSTILE_AGENT_REPORT: sandboxedReportFile,
              HOSTILE_AGENT_GUESS_HOME: home,
              HOSTILE_AGENT_GUESS_PORT: String(port),
            },
            // Its report lies in the real temp folder, which the sandbox replaces with its own.
            allowWrite: [resolve(reportFile, '..')],
          },
        },
      }),
    );
    core = spawn(process.execPath, ['--import', 'tsx', 'src/main/headless.ts'], {
      env: {
        ...process.env,
        GATEHOUSE_HOME: home,
        GATEHOUSE_PORT: String(port),
        GATEHOUSE_TOKEN: token,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    core.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    core.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await until(() => /Gatehouse is running at (\S+)/.exec(output)?.[1], 'the core');
    const parsed = new URL(url);
    origin = parsed.origin;
    const fragment = new URLSearchParams(parsed.hash.slice(1));
    expect(fragment.get('token')).toBe(token);
    person = new HttpApi(origin, token);
    await person.pair(fragment.get('pair')!, 'the person');
  });

  afterAll(async () => {
    person?.close();
    if (core && core.exitCode === null) {
      const exited = new Promise((r) => core.once('exit', r));
      core.kill('SIGTERM');
      await exited;
    }
    for (const dir of [home, folder, resolve(reportFile, '..')])
      rmSync(dir, { recursive: true, force: true });
  });

  it('sandboxed (the default), it finds no token, no port, nothing of Gatehouse’s folder, and reaches nothing', async () => {
    const { sessionId } = await person.call('createSession', {
      agentId: 'hostile-sandboxed',
      cwd: folder,
    });
    const turn = person.call('prompt', { sessionId, text: 'run the tests' });
    turn.catch(() => undefined);
    const report = await until(() => {
      if (!existsSync(sandboxedReportFile)) return undefined;
      const parsed = JSON.parse(readFileSync(sandboxedReportFile, 'utf8')) as Report;
      return parsed.attempts.length > 0 ? parsed : undefined;
    }, 'the sandboxed agent to attack');

    expect(report.ownGatehouseVariables).toEqual([]);
    // Its parent there is the sandbox's first process, whose environment is the agent's own.
    expect(report.tokenFound).toBe(false);
    expect(report.port).toBeNull();
    // It knew where the data folder is and could read nothing there.
    expect(existsSync(databasePath(home))).toBe(true);
    expect(report.homeFilesRead).toEqual([]);
    // It knew the port and could not connect.
    expect(report.attempts.length).toBeGreaterThan(0);
    for (const attempt of report.attempts) expect(attempt.status, attempt.what).toBeNull();

    const approvals = await person.call('listApprovals', {});
    const items = (
      Array.isArray(approvals) ? approvals : (approvals as { items: unknown[] }).items
    ) as {
      requestId: string;
      sessionId: string;
    }[];
    const request = items.find((a) => a.sessionId === sessionId)!;
    await person.call('vote', { requestId: request.requestId, optionId: 'no' });
    expect((await turn).stopReason).toBe('end_turn');
    await person.call('closeSession', { sessionId });
  });

  it('cannot approve its own request or switch Bypass on; the person decides, and the attempts are audited', async () => {
    const { sessionId } = await person.call('createSession', { agentId: 'hostile', cwd: folder });
    const turn = person.call('prompt', { sessionId, text: 'run the tests' });
    // Awaited below; a failure before that must not surface as an unhandled rejection.
    turn.catch(() => undefined);

    const report = await until(() => {
      if (!existsSync(reportFile)) return undefined;
      const parsed = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
      return parsed.attempts.length > 0 ? parsed : undefined;
    }, 'the agent to attack');

    // Nothing of Gatehouse reaches the agent's own environment.
    expect(report.ownGatehouseVariables).toEqual([]);
    // The worst case holds: it read the token from its parent's environ and found the port.
    expect(report.parentEnvironRead).toBe(true);
    expect(report.tokenFound).toBe(true);
    expect(report.port).toBeGreaterThan(0);
    // Every call it made was refused as coming from an agent.
    expect(report.attempts.map((a) => a.what)).toEqual(
      expect.arrayContaining(['list approvals', 'list agents']),
    );
    for (const attempt of report.attempts) {
      expect(attempt.status, `${attempt.what}: ${attempt.body}`).toBe(403);
      expect(attempt.body).toContain('AgentForbidden');
    }

    // Its request is still waiting for a person, and Bypass is still off.
    const approvals = await person.call('listApprovals', {});
    const items = Array.isArray(approvals) ? approvals : (approvals as { items: unknown[] }).items;
    expect(items).toHaveLength(1);
    const request = items[0] as { requestId: string };
    const agents = await person.call('listAgents', {});
    expect(agents.find((a) => a.id === 'hostile')?.mode).toBe('default');

    // The person's reject reaches the agent.
    await person.call('vote', { requestId: request.requestId, optionId: 'no' });
    expect((await turn).stopReason).toBe('end_turn');
    const final = await until(() => {
      const parsed = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
      return parsed.outcome ? parsed : undefined;
    }, 'the answer');
    expect(final.outcome).toEqual({ outcome: 'selected', optionId: 'no' });

    // The attempts are in the audit, and the chain verifies.
    const exited = new Promise((r) => core.once('exit', r));
    core.kill('SIGTERM');
    await exited;
    const db = new Database(databasePath(home), { readonly: true });
    try {
      const refused = db
        .prepare(
          `SELECT agent_id, session_id, payload_json FROM events WHERE type = 'api_refused_agent'`,
        )
        .all() as { agent_id: string; session_id: string; payload_json: string }[];
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]).toMatchObject({ agent_id: 'hostile', session_id: sessionId });
      expect(JSON.parse(refused[0]!.payload_json)).toMatchObject({
        method: 'GET',
        path: '/api/approvals',
      });
      const bypass = db
        .prepare(`SELECT count(*) AS n FROM events WHERE type = 'bypass_changed'`)
        .get() as {
        n: number;
      };
      expect(bypass.n).toBe(0);
      const decision = db
        .prepare(`SELECT decider_type FROM decisions WHERE request_id = ?`)
        .get(request.requestId) as { decider_type: string };
      expect(decision.decider_type).toBe('person');
    } finally {
      db.close();
    }
    const verify = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts'], {
      env: { ...process.env, GATEHOUSE_HOME: home },
      encoding: 'utf8',
    });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  });
});
