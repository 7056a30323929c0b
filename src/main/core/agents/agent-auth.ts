import { RequestError } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { AuthMethod, MAX_AUTH_METHODS } from '../../../shared/domain';
import type { LaunchableAgent } from '../../../shared/settings';
import { AgentGoneError, BadRequestError, ConflictError } from '../errors';
import { knownAgentFor } from '../sandbox/known-agents';
import type { AgentProcess } from './agent-process';
import type { Session } from './session';

/** ACP's auth_required: the agent opens no session until the client has called `authenticate`. */
const AUTH_REQUIRED = -32000;

/** What `initialize` may offer; a terminal method runs the agent as a TUI, which Gatehouse never does. */
const Offered = z
  .array(z.looseObject({ type: z.string().max(100).optional() }))
  .max(MAX_AUTH_METHODS);

/**
 * The methods a person may choose when session/new was refused with auth_required, or `error`
 * again when it was refused for another reason or the agent offered no method Gatehouse can use.
 * The methods are the agent's words: bounded and checked here, shown as plain text.
 */
export function signInAsked(error: unknown, offered: unknown): AuthMethod[] {
  if (!(error instanceof RequestError) || error.code !== AUTH_REQUIRED) throw error;
  const listed = Offered.safeParse(offered ?? []);
  if (!listed.success)
    throw new Error(`the agent asks for a sign-in, and its methods are malformed`);
  const methods: AuthMethod[] = [];
  for (const entry of listed.data) {
    if (entry.type !== undefined && entry.type !== 'agent') continue;
    const method = AuthMethod.safeParse(entry);
    if (!method.success)
      throw new Error(`the agent asks for a sign-in, and its methods are malformed`);
    const { id, name, description } = method.data;
    methods.push({ id, name, ...(description ? { description } : {}) });
  }
  if (methods.length === 0)
    throw new Error(
      `the agent asks for a sign-in and offers no method Gatehouse can use: ${error.message}`,
    );
  return methods;
}

/** Sessions whose agent waits for a sign-in, with the settings it was launched with. */
export class SignIns {
  private readonly waiting = new Map<string, LaunchableAgent>();

  constructor(private readonly changed: (session: Session) => void) {}

  /** The session stays starting, listed and shown with its methods, until a person chooses one. */
  wait(session: Session, config: LaunchableAgent): void {
    this.waiting.set(session.sessionId, config);
    // A key the person enters in the sign-in is kept there (commands/api-key-handlers.ts).
    const variable = knownAgentFor(session.agentId, config.command, config.args)?.apiKey ?? null;
    session.apiKey = { variable, set: variable !== null && Boolean(config.env[variable]) };
    this.changed(session);
  }

  forget(sessionId: string): void {
    this.waiting.delete(sessionId);
  }

  /**
   * ACP `authenticate` with a method the agent offered, then `open` (session/new again). A failure
   * offers the methods again; the launch settings are returned once the session is open.
   */
  async signIn(
    session: Session,
    methodId: string,
    open: (agent: AgentProcess) => Promise<void>,
  ): Promise<LaunchableAgent> {
    const config = this.waiting.get(session.sessionId);
    const offered = session.authMethods;
    const agent = session.process;
    if (!config || !offered || !agent)
      throw new ConflictError('this session is not waiting for a sign-in');
    if (!offered.some((m) => m.id === methodId)) {
      throw new BadRequestError(`the agent offered no sign-in method "${methodId}"`);
    }
    // One attempt at a time: the methods are withdrawn while it runs.
    session.authMethods = null;
    this.changed(session);
    try {
      await agent.authenticate(methodId);
      await open(agent);
    } catch (error) {
      if (session.state === 'closed')
        throw new AgentGoneError('the session ended while its agent was signing in');
      session.authMethods = offered;
      this.changed(session);
      throw new BadRequestError(
        `signing in with "${methodId}" failed: ${(error as Error).message}`,
      );
    }
    this.waiting.delete(session.sessionId);
    return config;
  }
}
