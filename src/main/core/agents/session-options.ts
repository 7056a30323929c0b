// A person changes one of the agent's session options (ACP session/set_config_option). The agent
// advertised them, so nothing it says is trusted to be harmless: a value that reads as the agent no
// longer asking is refused here, whatever option carries it, and an option that chooses how the
// agent asks stays under the mode guard afterwards.
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { withRefusals } from './agent-modes';
import { keepAsking, setConfigValue, type ModeGuardDeps } from './mode-guard';
import type { Session } from './session';

export async function setSessionOption(
  session: Session,
  configId: string,
  value: string | boolean,
  deps: ModeGuardDeps,
): Promise<void> {
  const found = session.configOptions.find((o) => o.id === configId);
  if (!found) throw new NotFoundError(`the agent offers no option "${configId}"`);
  if (session.state !== 'idle' && session.state !== 'prompting')
    throw new ConflictError(`session is ${session.state}`);
  const option = withRefusals([found], session.agentFamily)[0] ?? found;
  if (option.type === 'boolean') {
    if (typeof value !== 'boolean') throw new BadRequestError(`option "${configId}" is on or off`);
    if (value && option.refusedOn) throw refused(option.name);
  } else {
    const chosen = option.values.find((v) => v.value === value);
    if (!chosen) throw new BadRequestError(`option "${configId}" has no value "${String(value)}"`);
    if (chosen.refused) throw refused(chosen.name);
  }
  const from = found.currentValue;
  await setConfigValue(session, configId, value);
  deps.store.recordEvent({
    type: 'session_config',
    sessionId: session.sessionId,
    agentId: session.agentId,
    at: deps.now(),
    payload: { configId, from, to: value },
  });
  // The agent may have moved another option with this one (its mode with a preset).
  await keepAsking(session, deps);
}

const refused = (name: string) =>
  new ForbiddenError(
    `"${name}" reads as the agent acting without asking: Gatehouse does not set it`,
  );
