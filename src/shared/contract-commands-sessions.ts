// The commands that take a session up again after Gatehouse restarted.
import { z } from 'zod';
import { command } from './contract-command';
import { Id, SessionInfo } from './domain';

export const sessionLifeCommands = {
  resumeSession: command({
    input: z.object({ sessionId: Id }).strict(),
    output: SessionInfo,
    http: { method: 'POST', path: '/api/sessions/:sessionId/resume' },
    summary:
      'Start the agent of a session that ended with Gatehouse again, under the checks and settings a new session gets today, and take its session up (ACP session/resume, else session/load).',
  }),
} as const;
