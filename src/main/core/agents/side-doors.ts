// Every way a known agent can act without Gatehouse's say: a mode that approves by itself, an
// approval that reaches the agent by another road than its ACP client, an option that makes the
// agent remember an approval and stop asking. Each entry names how Gatehouse closes the door, or
// that it cannot, and the test that shows it. A door that stays open marks the session unguarded,
// and the agent starts only if the person opted in for it.
import type { AgentConfig, LaunchableAgent } from '../../../shared/settings';
import { BadRequestError } from '../errors';
import { programNames } from '../sandbox/known-agents';
import { AUTO_APPROVING_MODES, agentFamily, type AgentFamily } from './agent-modes';

export type SideDoorKind = 'auto-approving-mode' | 'local-approval-api' | 'remembered-approval';

export interface SideDoor {
  family: AgentFamily;
  kind: SideDoorKind;
  /** What the door is. */
  door: string;
  /** How Gatehouse closes it; for a door it cannot close, what it does instead. */
  closedBy: string;
  closed: boolean;
  /** The test that shows it. */
  proof: string;
}

/** What every surface shows for a session whose agent takes approvals from anyone local. */
export const ACCEPTS_LOCAL_APPROVALS =
  'not guarded: this agent accepts approvals from other local programs';

const REMEMBERED =
  "a person's allow_always becomes a Gatehouse grant and the agent is told allow_once; rules, grants and Bypass answer by the allow_once kind, never this option";

const modeDoors: SideDoor[] = (
  Object.entries(AUTO_APPROVING_MODES) as [AgentFamily, readonly string[]][]
)
  .filter(([, modes]) => modes.length > 0)
  .map(([family, modes]) => ({
    family,
    kind: 'auto-approving-mode',
    door: `modes that approve without asking: ${modes.join(', ')}`,
    closedBy:
      'the session is set back to a mode that asks (mode-guard); an agent that will not go back is marked unguarded',
    closed: true,
    proof: 'test/integration/agent-modes-scripted.test.ts',
  }));

export const SIDE_DOORS: readonly SideDoor[] = [
  ...modeDoors,
  {
    family: 'gemini',
    kind: 'remembered-approval',
    door: 'option proceed_always: Gemini CLI stops asking for that tool for the session',
    closedBy: REMEMBERED,
    closed: true,
    proof: 'test/integration/rules-gemini.test.ts',
  },
  {
    family: 'codex',
    kind: 'remembered-approval',
    door:
      'options approved-execpolicy-amendment (codex-acp 0.16) and accept_execpolicy_amendment (2.x): codex adds a ' +
      'permanent rule to its exec policy; allow_for_session (2.x): codex stops asking for that command or those files',
    closedBy: REMEMBERED,
    closed: true,
    proof: 'test/integration/codex.test.ts',
  },
  {
    family: 'opencode',
    kind: 'remembered-approval',
    door: 'option always: opencode stops asking for matching commands for the session',
    closedBy: REMEMBERED,
    closed: true,
    proof: 'test/integration/opencode.test.ts',
  },
  {
    family: 'opencode',
    kind: 'local-approval-api',
    door:
      '`opencode acp` serves an HTTP API on 127.0.0.1 where POST /permission/<id>/reply approves a pending request. ' +
      'Its password (OPENCODE_SERVER_PASSWORD) is in the environment its own tools inherit and in /proc/<pid>/environ, ' +
      'and the tools share its network namespace in the sandbox: its own shell tool can approve itself.',
    closedBy: `not closable: the session is marked "${ACCEPTS_LOCAL_APPROVALS}" and starts only with "allowUnguarded": true in the agent's settings`,
    closed: false,
    proof: 'test/integration/opencode.test.ts',
  },
];

/** The doors of `family` Gatehouse cannot close. */
export function openDoors(family: AgentFamily | null): SideDoor[] {
  return SIDE_DOORS.filter((door) => door.family === family && !door.closed);
}

/**
 * The family a launch runs, from the program and its first arguments (`npx opencode-ai acp`), or
 * the package of the script its interpreter runs (`node …/@agentclientprotocol/codex-acp/dist/…`).
 */
export function launchFamily(agentId: string, config: LaunchableAgent): AgentFamily | null {
  return agentFamily(agentId, ...programNames(config.command, config.args));
}

/**
 * The unguarded reason of an agent whose family (from its launch, or what it calls itself) has a
 * door Gatehouse cannot close, else null. Throws unless the agent's settings opted in.
 */
export function unguardedByDoor(
  agentId: string,
  config: AgentConfig,
  ...families: (AgentFamily | null)[]
): string | null {
  const open = families.flatMap((family) => openDoors(family));
  if (open.length === 0) return null;
  if (!config.allowUnguarded) {
    throw new BadRequestError(
      `agent "${agentId}" is ${open[0]!.family}, which accepts approvals from other local programs ` +
        `(its own tools included), so Gatehouse cannot guard it. To run it anyway, shown as unguarded, ` +
        `set "allowUnguarded": true in its settings.`,
    );
  }
  return ACCEPTS_LOCAL_APPROVALS;
}
