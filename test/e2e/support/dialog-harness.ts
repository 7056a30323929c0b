// The headless server with scripted agents, for the dialog specs and the dialog benchmark: craft
// any permission request (kinds, titles, raw input, diffs, several at once, several agents), then
// read what each agent was answered and what the audit recorded.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import type { PendingApproval, PermissionOption } from '../../../src/shared/domain';
import { HistoryPage } from '../../../src/shared/history';
import type { SandboxMode } from '../../../src/shared/sandbox-settings';
import type { SettingsInput } from '../../../src/shared/settings';
import type { ScriptStep, ScriptedAgentScript } from '../../support/agents/scripted-agent';
import { startHeadless, type Headless, type HeadlessOptions } from '../headless';

const AGENT_ENTRY = fileURLToPath(new URL('./file-script-agent.ts', import.meta.url));

export const OPTIONS: PermissionOption[] = [
  { optionId: 'opt-once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'opt-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'opt-reject', name: 'Reject', kind: 'reject_once' },
];

export interface AgentSpec {
  id: string;
  name: string;
  /** Steps of the first prompt; the later prompts say what `prompts` says. */
  script: ScriptedAgentScript;
  /** Its sandbox setting (default: workspace-write). */
  sandbox?: SandboxMode;
  /** Whether its commands are previewed (default: as the settings say, on). */
  preview?: boolean;
}

let toolCallCounter = 0;
const nextToolCallId = (prefix: string) => `${prefix}-${++toolCallCounter}`;

/** A permission request; on allow the agent says so (and writes `writes`, when given). */
export function ask(
  toolCall: {
    kind: string;
    title: string;
    rawInput?: unknown;
    locations?: { path: string; line?: number }[];
    content?: unknown[];
    toolCallId?: string;
  },
  options: PermissionOption[] = OPTIONS,
  writes?: { path: string; content: string },
): ScriptStep {
  return {
    type: 'requestPermission',
    toolCall: { toolCallId: toolCall.toolCallId ?? nextToolCallId(toolCall.kind), ...toolCall },
    options,
    onAllow: writes
      ? [{ type: 'writeFile', path: writes.path, content: writes.content, via: 'fs' }]
      : [],
  } as ScriptStep;
}

/** An edit of `path` from `oldText` (null: a new file) to `newText`. */
export function edit(
  path: string,
  oldText: string | null,
  newText: string,
  extra: { title?: string; options?: PermissionOption[]; write?: boolean } = {},
): ScriptStep {
  return ask(
    {
      kind: 'edit',
      title: extra.title ?? `${oldText === null ? 'Create' : 'Edit'} ${path.split('/').pop()}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText, newText }],
      rawInput: { file_path: path },
    },
    extra.options,
    extra.write ? { path, content: newText } : undefined,
  );
}

/** A shell command, with the raw command in rawInput (as claude-agent-acp sends it). */
export function run(command: string, title = command, options?: PermissionOption[]): ScriptStep {
  return ask({ kind: 'execute', title, rawInput: { command } }, options);
}

export const concurrently = (...steps: ScriptStep[]): ScriptStep => ({
  type: 'concurrent',
  branches: steps.map((s) => [s]),
});

/** One agent (Claude Code unless told) whose first prompt asks all `steps` at once. */
export const oneAgent = (
  steps: ScriptStep[],
  agent: { id: string; name: string } = { id: 'claude', name: 'Claude Code' },
): AgentSpec[] => [{ ...agent, script: { prompts: [[concurrently(...steps)]] } }];

export interface DialogHarness {
  headless: Headless;
  /** The session folder (real path). */
  folder: string;
  /** Opens a session of `agentId` in the folder and sends its first prompt (not awaited). */
  startTurn(agentId: string, text?: string): Promise<string>;
  pending(): Promise<PendingApproval[]>;
  /** Polls the API until `count` requests are pending. */
  waitForPending(count: number, timeoutMs?: number): Promise<PendingApproval[]>;
  history(): Promise<HistoryPage>;
  /** What the agent was answered to each of its permission requests, in order. */
  replies(agentId: string): { toolCallId: string; outcome: string; optionId?: string }[];
  /** What the agent read in answer to each of its raw requests (`raw-1`, …): a result or an error. */
  rawAnswers(agentId: string): Record<string, { result?: unknown; error?: unknown }>;
  /** Opens the UI at `#/approvals` (default) or on the sessions page. */
  open(page: Page, view?: 'approvals' | 'sessions'): Promise<void>;
  /** Starts a turn of `agentId`, waits until `count` requests are pending, opens `#/approvals`:
   *  the dialog, and the pending requests. */
  showTurn(
    page: Page,
    count: number,
    agentId?: string,
  ): Promise<{ view: Locator; pending: PendingApproval[] }>;
  stop(): Promise<void>;
}

interface LogLine {
  dir: 'in' | 'out';
  msg: {
    id?: number;
    method?: string;
    params?: { toolCall?: { toolCallId?: string } };
    result?: { outcome?: { outcome: string; optionId?: string } };
  };
}

/** `agents` may be built from the session folder, so scripts can name paths inside it. */
export async function startDialogHarness(
  agentsOf: AgentSpec[] | ((folder: string) => AgentSpec[]),
  settings: Partial<SettingsInput> = {},
  headlessOptions: HeadlessOptions = {},
): Promise<DialogHarness> {
  const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-dialog-'));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-dialog-work-')));
  const agents = typeof agentsOf === 'function' ? agentsOf(folder) : agentsOf;
  seedEditedFiles(agents, folder);
  const logs: Record<string, string> = {};
  const agentSettings: Record<
    string,
    {
      name: string;
      command: string;
      args: string[];
      env: Record<string, string>;
      sandbox?: SandboxMode;
      preview?: boolean;
      allowWrite: string[];
    }
  > = {};
  for (const agent of agents) {
    const scriptFile = join(scratch, `${agent.id}.json`);
    writeFileSync(scriptFile, JSON.stringify(agent.script));
    logs[agent.id] = join(scratch, `${agent.id}.log.jsonl`);
    agentSettings[agent.id] = {
      name: agent.name,
      command: process.execPath,
      args: [AGENT_ENTRY],
      env: { SCRIPTED_AGENT_SCRIPT_FILE: scriptFile, SCRIPTED_AGENT_LOG: logs[agent.id]! },
      ...(agent.sandbox ? { sandbox: agent.sandbox } : {}),
      ...(agent.preview !== undefined ? { preview: agent.preview } : {}),
      // Its script and log lie in the real temp folder, which the sandbox replaces with its own.
      allowWrite: [scratch],
    };
  }
  const headless = await startHeadless({ ...settings, agents: agentSettings }, headlessOptions);
  const json = async <T>(response: Response): Promise<T> => {
    const body = (await response.json()) as T;
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
    return body;
  };
  // The list is a summary; each request is read whole, as the dialog shows it.
  const pending = async () => {
    const { items } = await json<{ items: { requestId: string }[] }>(
      await headless.api('/api/approvals'),
    );
    const whole = await Promise.all(
      items.map(async (a) => {
        const response = await headless.api(`/api/approvals/${a.requestId}`);
        return response.status === 404 ? null : json<PendingApproval>(response);
      }),
    );
    return whole.filter((a): a is PendingApproval => a !== null);
  };

  const harness: DialogHarness = {
    headless,
    folder,
    async startTurn(agentId, text = 'go') {
      const { sessionId } = await json<{ sessionId: string }>(
        await headless.api('/api/sessions', {
          method: 'POST',
          body: JSON.stringify({ agentId, cwd: folder }),
        }),
      );
      // The turn ends when its requests are decided; nobody waits for it here.
      headless
        .api(`/api/sessions/${sessionId}/prompt`, {
          method: 'POST',
          body: JSON.stringify({ text }),
        })
        .catch(() => undefined);
      return sessionId;
    },
    pending,
    async waitForPending(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const list = await pending();
        if (list.length >= count) return list;
        if (Date.now() > deadline)
          throw new Error(`expected ${count} pending requests, have ${list.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async history() {
      return HistoryPage.parse(await json(await headless.api('/api/history?limit=500')));
    },
    replies(agentId) {
      const lines = readFileSync(logs[agentId]!, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LogLine);
      const asked = new Map<number, string>();
      for (const l of lines) {
        if (
          l.dir === 'out' &&
          l.msg.method === 'session/request_permission' &&
          l.msg.id !== undefined
        ) {
          asked.set(l.msg.id, l.msg.params?.toolCall?.toolCallId ?? '');
        }
      }
      return lines
        .filter(
          (l) => l.dir === 'in' && l.msg.id !== undefined && asked.has(l.msg.id) && l.msg.result,
        )
        .map((l) => ({
          toolCallId: asked.get(l.msg.id!)!,
          outcome: l.msg.result!.outcome!.outcome,
          optionId: l.msg.result!.outcome!.optionId,
        }));
    },
    rawAnswers(agentId) {
      const answers: Record<string, { result?: unknown; error?: unknown }> = {};
      for (const line of readFileSync(logs[agentId]!, 'utf8').trim().split('\n')) {
        const { dir, msg } = JSON.parse(line) as {
          dir: string;
          msg: { id?: unknown; result?: unknown; error?: unknown };
        };
        if (dir !== 'in' || typeof msg.id !== 'string' || !msg.id.startsWith('raw-')) continue;
        answers[msg.id] = msg.error === undefined ? { result: msg.result } : { error: msg.error };
      }
      return answers;
    },
    async open(page, view = 'approvals') {
      await page.goto(await headless.pairingUrl());
      // The header goes inert under the modal, so the view is switched by its address.
      await page
        .locator('.topbar')
        .waitFor({ timeout: 20_000 })
        .catch(async (error: Error) => {
          const shown = await page
            .locator('body')
            .innerText()
            .catch(() => '');
          throw new Error(
            `the app did not load (is out/ being rebuilt?): ${shown.slice(0, 300)}\n${error.message}`,
          );
        });
      if (view === 'approvals') await page.evaluate("location.hash = '#/approvals'");
    },
    async showTurn(page, count, agentId = 'claude') {
      await harness.startTurn(agentId);
      const pending = await harness.waitForPending(count);
      await harness.open(page);
      const view = approvalsView(page);
      // Every request has reached the page and the one on screen is drawn whole.
      await expect(view.getByRole('status', { name: 'Queue position' })).toHaveText(
        new RegExp(`of ${pending.length}$`),
      );
      await expect(view.getByText('Loading the request…')).toHaveCount(0);
      return { view, pending };
    },
    async stop() {
      await headless.stop();
      rmSync(scratch, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The dialog as the whole #/approvals view. */
export const approvalsView = (page: Page) =>
  page.getByRole('region', { name: /^Permission request/ });

/**
 * The project holds what each edit says it holds: the dialog shows a diff from the file on disk, so
 * a file an edit's "before" names is written there first, unless a test made it itself.
 */
function seedEditedFiles(agents: readonly AgentSpec[], folder: string): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const item = value as Record<string, unknown>;
    const { type, path, oldText } = item;
    if (type === 'diff' && typeof path === 'string' && typeof oldText === 'string') {
      if (path.startsWith(`${folder}/`) && !existsSync(path)) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, oldText);
      }
    }
    Object.values(item).forEach(visit);
  };
  agents.forEach((agent) => visit(agent.script));
}

/** The banner a page shows while the core does not answer. */
export const notAnsweringBanner = (page: Page) =>
  page.getByRole('alert').filter({ hasText: 'Gatehouse is not answering' });
