// Real decisions for the history, rules and settings specs: the scripted agent asks (one prompt =
// one scripted request, chosen by the prompt's text), a paired client votes over HTTP like a
// browser tab does, rules and grants decide on their own.
import type { Page } from '@playwright/test';
import type { PendingApproval } from '../../../src/shared/domain';
import { HistoryPage, type HistoryItem } from '../../../src/shared/history';
import type { DialogHarness } from './dialog-harness';

export interface Voter {
  clientId: string;
  clientToken: string;
}

/** A browser a person paired: its votes are "by you in the browser". */
export async function registerVoter(h: DialogHarness, label = 'e2e voter'): Promise<Voter> {
  return h.headless.pair(label, 'browser');
}

export async function vote(
  h: DialogHarness,
  voter: Voter,
  requestId: string,
  body: {
    optionId: string;
    grant?: { scope: string; expiresInMinutes?: number };
    message?: string;
  },
): Promise<void> {
  const response = await h.headless.api(`/api/approvals/${requestId}/vote`, {
    method: 'POST',
    headers: {
      'x-gatehouse-client-id': voter.clientId,
      'x-gatehouse-client-token': voter.clientToken,
    },
    body: JSON.stringify({ requestId, ...body }),
  });
  if (response.status !== 200)
    throw new Error(`vote: HTTP ${response.status} ${await response.text()}`);
}

/** Sends a prompt to an open session; resolves with the stop reason when the turn ends. */
export async function prompt(h: DialogHarness, sessionId: string, text: string): Promise<string> {
  const response = await h.headless.api(`/api/sessions/${sessionId}/prompt`, {
    method: 'POST',
    body: JSON.stringify({ text }),
  });
  const body = (await response.json()) as { stopReason?: string };
  if (!response.ok) throw new Error(`prompt: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.stopReason!;
}

export async function openSession(h: DialogHarness, agentId: string): Promise<string> {
  const response = await h.headless.api('/api/sessions', {
    method: 'POST',
    body: JSON.stringify({ agentId, cwd: h.folder }),
  });
  const body = (await response.json()) as { sessionId: string };
  if (!response.ok) throw new Error(`session: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.sessionId;
}

/** Runs one prompt whose request a person answers with `optionId`; resolves once the turn ended. */
export async function decideTurn(
  h: DialogHarness,
  voter: Voter,
  sessionId: string,
  text: string,
  body: Parameters<typeof vote>[3],
): Promise<PendingApproval> {
  const turn = prompt(h, sessionId, text);
  const [approval] = await h.waitForPending(1);
  await vote(h, voter, approval!.requestId, body);
  await turn;
  return approval!;
}

export async function historyOf(h: DialogHarness, query = ''): Promise<HistoryItem[]> {
  const response = await h.headless.api(`/api/history?limit=500${query ? `&${query}` : ''}`);
  return HistoryPage.parse(await response.json()).items;
}

/** Opens the UI on one of its views (the token is kept by the tab, so later hashes need none). */
export async function openView(h: DialogHarness, page: Page, hash: string): Promise<void> {
  await page.goto(await h.headless.pairingUrl());
  await page.locator('.topbar').waitFor();
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
}
