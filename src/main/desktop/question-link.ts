// The desktop opens a question's link in the system browser, and only on the person's click. The
// page names the request, never the address: the address opened is the one the core holds for that
// waiting question (an http(s) link with no user name, checked when the agent asked).
import { ipcMain, shell } from 'electron';
import { DESKTOP_OPEN_QUESTION_LINK_CHANNEL, type Result } from '../../shared/contract';
import type { Core } from '../core';
import { senderAllowed, type IpcWindows } from './ipc-sender';

export function wireQuestionLink(
  core: Core,
  windows: IpcWindows,
  devServerUrl?: string,
): () => void {
  ipcMain.handle(
    DESKTOP_OPEN_QUESTION_LINK_CHANNEL,
    async (event, requestId: unknown): Promise<Result<{ ok: true }>> => {
      const refuse = (message: string): Result<{ ok: true }> => ({
        ok: false,
        error: { name: 'ForbiddenError', message },
      });
      if (!senderAllowed(event, windows, devServerUrl))
        return refuse('IPC from a frame outside Gatehouse');
      const question =
        typeof requestId === 'string' ? core.pipeline.pending.get(requestId)?.question : undefined;
      if (question?.mode !== 'url') return refuse('no waiting question with a link');
      core.store.recordEvent({
        type: 'question_link_opened',
        requestId: requestId as string,
        payload: { host: question.host, url: question.url },
      });
      await shell.openExternal(question.url);
      return { ok: true, result: { ok: true } };
    },
  );
  return () => ipcMain.removeHandler(DESKTOP_OPEN_QUESTION_LINK_CHANNEL);
}
