// `gatehouse hook claude-code|gemini`: the command a terminal CLI runs before each tool call. It
// reads the CLI's event on stdin, asks the core over the control socket, waits for the decision and
// prints it in the CLI's own words. It always answers, and in time: whatever goes wrong is a deny,
// except that Claude Code, when no core runs, may be told to ask the person itself.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CONTROL_MAX_MESSAGE_BYTES } from '../../shared/control-protocol';
import type { HookRequestParams } from '../../shared/control-hook';
import { Settings } from '../../shared/settings';
import { settingsPath, resolveHome } from '../../main/core';
import { controlSocketPath } from '../../main/control/socket-path';
import { CoreNotRunningError, openControl } from '../control-client';
import { EXIT, type CliIo } from '../io';
import {
  AGENT_OF,
  answerJson,
  CLI_NAME,
  HookEvent,
  type HookAnswer,
  type HookCli,
} from './formats';

/**
 * The hook answers within this, deny on expiry. `gatehouse hook install` writes a timeout of
 * HOOK_TIMEOUT_SECONDS into the CLI's settings: a CLI that kills a hook past its timeout lets the
 * tool run (Gemini CLI) or falls back to its own prompt, so the hook must speak first.
 */
export const HOOK_TIMEOUT_SECONDS = 600;
export const HOOK_ANSWER_BOUND_MS = (HOOK_TIMEOUT_SECONDS - 10) * 1000;
const CONNECT_TIMEOUT_MS = 2000;
/** A CLI's event larger than one control message cannot be shown whole: refused. */
const MAX_EVENT_BYTES = CONTROL_MAX_MESSAGE_BYTES - 4096;

export const HOOK_RUN_HELP = `Usage: gatehouse hook claude-code|gemini

Run by Claude Code (a PreToolUse hook) or Gemini CLI (a BeforeTool hook) before each tool call:
reads the CLI's event on stdin, asks the Gatehouse core on $GATEHOUSE_HOME, and prints the decision
as the CLI expects it. Install it with \`gatehouse hook install\`.

When no core runs, Claude Code is told "ask" (it asks you itself) unless the setting
hooks.whenUnavailable is "deny"; Gemini CLI is always told "deny" (under yolo its "ask" would run
the tool). The hook answers within ${HOOK_ANSWER_BOUND_MS / 1000} s, deny on expiry.`;

class Refusal extends Error {}

function readStdin(input: Readable, deadline: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => reject(new Refusal('no event on stdin in time')),
      deadline - Date.now(),
    );
    input.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES) {
        clearTimeout(timer);
        input.destroy();
        reject(new Refusal('the tool call is too large for Gatehouse to show'));
      } else chunks.push(chunk);
    });
    input.once('error', (error) => (clearTimeout(timer), reject(error)));
    input.once('end', () => (clearTimeout(timer), resolve(Buffer.concat(chunks).toString('utf8'))));
  });
}

function parseEvent(text: string): HookEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal('the hook event is not JSON');
  }
  const event = HookEvent.safeParse(value);
  if (!event.success)
    throw new Refusal(
      `the hook event is not understood: ${event.error.issues[0]?.message ?? 'invalid'}`,
    );
  return event.data;
}

/** hooks.whenUnavailable from the home's settings; a file that cannot be read fails closed. */
function whenUnavailable(home: string): 'ask' | 'deny' {
  let text: string;
  try {
    text = readFileSync(settingsPath(home), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'ask' : 'deny';
  }
  try {
    const hooks = Settings.shape.hooks.safeParse((JSON.parse(text) as { hooks?: unknown }).hooks);
    return hooks.success ? hooks.data.whenUnavailable : 'deny';
  } catch {
    return 'deny';
  }
}

async function decide(
  cli: HookCli,
  io: CliIo,
  input: Readable,
  deadline: number,
): Promise<{ decision: HookAnswer; reason: string }> {
  const event = parseEvent(await readStdin(input, deadline));
  const home = resolveHome(io.env);
  const params: HookRequestParams = {
    agent: AGENT_OF[cli],
    cliSessionId: event.session_id,
    cwd: event.cwd,
    toolName: event.tool_name,
    toolInput: event.tool_input,
  };
  let control;
  try {
    ({ control } = await openControl(controlSocketPath(home), 'hook', CONNECT_TIMEOUT_MS));
  } catch (error) {
    if (!(error instanceof CoreNotRunningError)) throw error;
    const fallback = cli === 'claude-code' ? whenUnavailable(home) : 'deny';
    const said = `Gatehouse is not running on ${home}`;
    io.err(
      fallback === 'ask'
        ? `gatehouse hook: ${said}: ${CLI_NAME[cli]} asks you itself`
        : `gatehouse hook: ${said}: refused`,
    );
    return { decision: fallback, reason: `${said}: nobody could approve this` };
  }
  try {
    return await control.call('hook.request', params, {
      timeoutMs: Math.max(1, deadline - Date.now()),
    });
  } finally {
    control.close();
  }
}

export async function runHook(
  cli: HookCli,
  io: CliIo,
  input: Readable = process.stdin,
): Promise<number> {
  const deadline = Date.now() + HOOK_ANSWER_BOUND_MS;
  let answer: { decision: HookAnswer; reason: string };
  try {
    answer = await decide(cli, io, input, deadline);
  } catch (error) {
    const why = (error as Error).message;
    if (!(error instanceof Refusal)) io.err(`gatehouse hook: ${why}`);
    answer = { decision: 'deny', reason: `Gatehouse refused: ${why}` };
  }
  io.out(answerJson(cli, answer.decision, answer.reason));
  return EXIT.ok;
}
