// One decided request as the history window shows it when opened: the request row, its decision,
// its votes, and the diff texts read back from the blobs they were stored in.
import { ActualEffects } from '../../../shared/effects';
import type { FollowingWrite, HistoryDetail, VoteRecord } from '../../../shared/history';
import { decodeBlob, restore } from './blobs';
import { toItem, type Prepare, type RawItem } from './decision-page';
import type { StoredDiff, VoteRow } from './records';

/** A decided request whole: its tool call, diffs, votes and whether a person saw it. */
export function readDetail(prepare: Prepare, requestId: string): HistoryDetail | null {
  const r = prepare('SELECT * FROM requests WHERE request_id = ?').get(requestId) as
    Record<string, unknown> | undefined;
  const d = prepare(
    `SELECT request_id, session_id, agent_id, tool_kind, decided_at, outcome, option_id, option_kind, option_name,
       decider_json, reason, message FROM decisions WHERE request_id = ?`,
  ).get(requestId) as RawItem | undefined;
  if (!r || !d) return null;
  const item = toItem({
    ...d,
    title: r.title,
    command_text: r.command_text,
    paths_json: r.paths_json,
    warning_codes: r.warning_codes,
    issued_at: r.issued_at,
  } as RawItem);
  const load = (hash: string): string => {
    const blob = prepare('SELECT codec, data FROM blobs WHERE hash = ?').get(hash) as
      { codec: string; data: Buffer } | undefined;
    // A missing blob is an integrity failure verifyChain reports; show the gap rather than fail the page.
    return blob ? decodeBlob(blob.codec, blob.data) : `[missing blob ${hash}]`;
  };
  const votes = (
    prepare(
      'SELECT client_id, surface, identity_proven, option_id, outcome, at FROM votes WHERE request_id = ? ORDER BY seq',
    ).all(requestId) as Omit<VoteRow, 'request_id'>[]
  ).map((v): VoteRecord => ({
    clientId: v.client_id,
    surface: v.surface as VoteRecord['surface'],
    identityProven: v.identity_proven === 1,
    optionId: v.option_id,
    outcome: v.outcome,
    at: v.at,
  }));
  const diffs = (JSON.parse(r.diffs_json as string) as StoredDiff[]).map(
    ({ oldTextBlob, newTextBlob, ...rest }) => ({
      ...rest,
      oldText: oldTextBlob === null ? null : load(oldTextBlob),
      newText: newTextBlob === null ? null : load(newTextBlob),
    }),
  );
  const displayed =
    prepare('SELECT displayed FROM decisions WHERE request_id = ?').pluck().get(requestId) === 1 ||
    prepare("SELECT 1 FROM events WHERE request_id = ? AND type = 'request_displayed' LIMIT 1").get(
      requestId,
    ) !== undefined;
  return {
    ...item,
    cwd: r.cwd as string,
    policy: r.policy as HistoryDetail['policy'],
    toolCall: restore(JSON.parse(r.tool_call_json as string), load) as HistoryDetail['toolCall'],
    options: JSON.parse(r.options_json as string) as HistoryDetail['options'],
    warnings: JSON.parse(r.warnings_json as string) as HistoryDetail['warnings'],
    diffs,
    command:
      r.command_json === null
        ? null
        : (JSON.parse(r.command_json as string) as HistoryDetail['command']),
    votes,
    displayed,
    expiresAt: r.expires_at as number,
    writes: followingWrites(prepare, requestId),
    ...effectsOf(prepare, requestId),
  };
}

/** What an allowed command really changed, as last recorded; nothing when it was not observed. */
function effectsOf(prepare: Prepare, requestId: string): { effects?: ActualEffects } {
  const row = prepare(
    `SELECT payload_json FROM events WHERE request_id = ? AND type = 'command_effects'
       ORDER BY seq DESC LIMIT 1`,
  ).get(requestId) as { payload_json: string } | undefined;
  if (!row) return {};
  // The payload carries more than the history shows (how long the allow was held, what was not kept).
  const parsed = ActualEffects.safeParse(JSON.parse(row.payload_json));
  return parsed.success ? { effects: parsed.data } : {};
}

/** The writes the request's approval was used for or refused to, oldest first. */
function followingWrites(prepare: Prepare, requestId: string): FollowingWrite[] {
  const rows = prepare(
    `SELECT type, at, payload_json FROM events
       WHERE request_id = ? AND type IN ('fs_write', 'fs_write_refused') ORDER BY seq`,
  ).all(requestId) as { type: string; at: number; payload_json: string }[];
  return rows.map((row) => {
    const p = JSON.parse(row.payload_json) as Record<string, unknown>;
    const text = (key: string): string | null => (typeof p[key] === 'string' ? p[key] : null);
    return {
      at: row.at,
      path: text('path') ?? '',
      outcome: row.type === 'fs_write' ? 'written' : 'refused',
      sha256: text('sha256'),
      approvedSha256: text('approvedSha256'),
      reason: text('reason') ?? text('error'),
    };
  });
}
