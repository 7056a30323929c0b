// The approval budget: every part an agent controls is bounded, a cut part says what it was (size,
// sha-256, blob), and the originals handed to the store stay within their per-request cap.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { summarizeApproval } from '../../../shared/approval-summary';
import { PendingApproval, PendingSummary, TruncatedValue, type Cut } from '../../../shared/domain';
import { boundApproval, diffsNotPrepared, jsonBytes, prepareDiffs } from '.';
import {
  APPROVAL_MAX_JSON_BYTES,
  COMMAND_MAX_CHARS,
  CONTENT_ITEM_MAX_BYTES,
  DIFF_SIDE_MAX_BYTES,
  DIFFS_TEXT_MAX_BYTES,
  MAX_CONTENT_ITEMS,
  MAX_DIFFS,
  MAX_LOCATIONS,
  RAW_INPUT_MAX_BYTES,
  STORED_ORIGINALS_MAX_BYTES,
  SUMMARY_LIMITS,
  TITLE_MAX_CHARS,
} from './limits';
import { analyse, SESSION } from './helpers.test-support';
import { pendingApproval } from './pending-approval.test-support';

const MB = 1024 * 1024;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A raw tool call through the safety layer, as the pipeline builds the approval from it. */
function approvalOf(raw: Record<string, unknown>): PendingApproval {
  const { toolCall, command, warnings } = analyse(raw);
  const diffs = prepareDiffs(toolCall, {
    maxBytes: DIFF_SIDE_MAX_BYTES,
    totalBytes: DIFFS_TEXT_MAX_BYTES,
  });
  const diffsDropped = diffsNotPrepared(toolCall);
  return pendingApproval({
    requestId: '01900000-0000-7000-8000-000000000001',
    sessionId: 's1',
    agentId: 'a',
    agentName: 'Agent',
    cwd: SESSION,
    toolCall,
    warnings,
    diffs,
    ...(diffsDropped > 0 ? { diffsDropped } : {}),
    command,
  });
}

const cutOf = (approval: PendingApproval, part: string): Cut | undefined =>
  approval.cuts?.find((c) => c.part === part);

/** An original as the store joins it. */
const textOf = (original: string | readonly string[]) =>
  typeof original === 'string' ? original : original.join('');

describe('boundApproval', () => {
  it('leaves a request of ordinary size untouched', () => {
    const whole = approvalOf({
      toolCallId: 't',
      kind: 'execute',
      title: 'npm test',
      rawInput: { command: 'npm test' },
    });
    const { approval, originals } = boundApproval(whole);
    expect(approval).toEqual(whole);
    expect(approval.cuts).toBeUndefined();
    expect(originals).toEqual([]);
  });

  it('replaces a 10 MB rawInput by a marker with its size, hash, blob and a preview', () => {
    const rawInput = { file_path: '/home/dev/project/big.txt', content: 'x'.repeat(10 * MB) };
    const json = JSON.stringify(rawInput);
    const { approval, originals } = boundApproval(
      approvalOf({ toolCallId: 't', kind: 'other', title: 'Write big', rawInput }),
    );
    const marker = TruncatedValue.parse(approval.toolCall.rawInput);
    expect(marker).toMatchObject({
      truncated: true,
      bytes: Buffer.byteLength(json),
      sha256: sha256(json),
      blob: sha256(json),
    });
    expect(marker.preview).toContain('"file_path": "/home/dev/project/big.txt"');
    expect(cutOf(approval, 'rawInput')).toEqual({ part: 'rawInput', ...withoutPreview(marker) });
    expect(originals.map(textOf)).toEqual([json]);
    // The file itself is a piece of the original: it was measured and hashed, never copied.
    expect(originals[0]).toContain(rawInput.content);
    expect(jsonBytes(approval)).toBeLessThan(64 * 1024);
  }, 30_000);

  it('keeps rawInput up to its bound', () => {
    const rawInput = { content: 'x'.repeat(RAW_INPUT_MAX_BYTES - 20) };
    const { approval } = boundApproval(approvalOf({ toolCallId: 't', title: 'ok', rawInput }));
    expect(approval.toolCall.rawInput).toEqual(rawInput);
  });

  it('cuts a title over 4 KB for display, after the warnings read all of it', () => {
    // The hidden character sits past the cut: the warning must still be there.
    const title = `Read notes ${'a'.repeat(TITLE_MAX_CHARS * 2)}\u202e`;
    const whole = approvalOf({ toolCallId: 't', kind: 'read', title });
    expect(whole.warnings.map((w) => w.code)).toContain('bidi_control');
    const { approval } = boundApproval(whole);
    expect(approval.toolCall.title.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(approval.toolCall.title).toMatch(/…\[truncated: \d+ more chars\]$/);
    expect(approval.warnings.map((w) => w.code)).toContain('bidi_control');
    expect(cutOf(approval, 'title')).toMatchObject({
      bytes: Buffer.byteLength(title),
      sha256: sha256(title),
    });
  });

  it('does not split a surrogate pair when cutting a title', () => {
    const { approval } = boundApproval(
      approvalOf({ toolCallId: 't', title: '😀'.repeat(TITLE_MAX_CHARS) }),
    );
    const head = approval.toolCall.title.slice(0, approval.toolCall.title.indexOf('…'));
    expect(head.length % 2).toBe(0);
    expect([...head].every((c) => c === '😀')).toBe(true);
  });

  it('replaces oversized content items by markers, and items past the count by one marker', () => {
    const big = {
      type: 'content',
      content: { type: 'text', text: 'y'.repeat(CONTENT_ITEM_MAX_BYTES) },
    };
    const small = { type: 'content', content: { type: 'text', text: 'hello' } };
    const content = [small, big, ...Array.from({ length: MAX_CONTENT_ITEMS + 5 }, () => small)];
    const { approval } = boundApproval(approvalOf({ toolCallId: 't', title: 'x', content }));
    const shown = approval.toolCall.content;
    expect(shown).toHaveLength(MAX_CONTENT_ITEMS + 1);
    expect(shown[0]).toEqual(small);
    expect(shown[1]).toEqual({
      truncated: true,
      bytes: jsonBytes(big),
      sha256: sha256(JSON.stringify(big)),
      blob: sha256(JSON.stringify(big)),
    });
    const rest = content.slice(MAX_CONTENT_ITEMS);
    expect(shown[MAX_CONTENT_ITEMS]).toMatchObject({ truncated: true, bytes: jsonBytes(rest) });
    expect(approval.cuts?.map((c) => c.part)).toEqual([
      'content[1]',
      `content[${MAX_CONTENT_ITEMS}…]`,
    ]);
  });

  it('bounds locations (count and path length) and keeps the whole list as the original', () => {
    // As many paths, each cut to 4,096 characters, as the rules take together.
    const locations = Array.from({ length: 30 }, (_, i) => ({
      path: `/p/${i}/${'d'.repeat(5000)}`,
    }));
    const { approval, originals } = boundApproval(
      approvalOf({ toolCallId: 't', kind: 'read', title: 'many', locations }),
    );
    expect(jsonBytes(approval.toolCall.locations)).toBeLessThanOrEqual(32 * 1024);
    expect(approval.toolCall.locations.every((l) => l.path.length <= 4096)).toBe(true);
    const cut = cutOf(approval, 'locations')!;
    const texts = originals.map(textOf);
    expect(JSON.parse(texts.find((o) => sha256(o) === cut.sha256)!)).toHaveLength(30);
  }, 30_000);

  it('cuts a huge command and its args, and says how many args were left out', () => {
    const { approval } = boundApproval(
      approvalOf({
        toolCallId: 't',
        kind: 'execute',
        title: 'run',
        rawInput: { command: ['echo', ...Array.from({ length: 20_000 }, (_, i) => `arg${i}`)] },
      }),
    );
    expect(approval.command!.args!.join('').length).toBeLessThan(COMMAND_MAX_CHARS + 100);
    expect(approval.command!.args!.at(-1)).toMatch(/^…\[truncated: \d+ more args\]$/);
    expect(cutOf(approval, 'command')).toBeDefined();
  }, 30_000);

  it('a command shown cut offers no prefix to remember; one shown whole keeps its offer', () => {
    const offer = { words: ['echo'], least: 1 };
    const huge = approvalOf({
      toolCallId: 't',
      kind: 'execute',
      title: 'run',
      rawInput: { command: `echo ${'a'.repeat(100_000)}` },
    });
    const cut = boundApproval({ ...huge, command: { ...huge.command!, prefix: offer } });
    expect(cut.approval.command).not.toHaveProperty('prefix');
    const small = approvalOf({ toolCallId: 't', kind: 'execute', rawInput: { command: 'echo a' } });
    const whole = boundApproval({ ...small, command: { ...small.command!, prefix: offer } });
    expect(whole.approval.command?.prefix).toEqual(offer);
  });

  it('bounds diffs: each side, all texts together, and their number', () => {
    const content = Array.from({ length: MAX_DIFFS + 20 }, (_, i) => ({
      type: 'diff',
      path: `/home/dev/project/f${i}.txt`,
      oldText: i === 0 ? 'a\n'.repeat(200_000) : 'a\n',
      newText: i === 0 ? 'b\n'.repeat(200_000) : `b${i}\n`,
    }));
    const { approval } = boundApproval(
      approvalOf({ toolCallId: 't', kind: 'edit', title: 'edit', content }),
    );
    expect(approval.diffs.length).toBeLessThanOrEqual(MAX_DIFFS);
    const texts = approval.diffs.reduce(
      (n, d) => n + Buffer.byteLength(d.oldText ?? '') + Buffer.byteLength(d.newText ?? ''),
      0,
    );
    expect(texts).toBeLessThanOrEqual(DIFFS_TEXT_MAX_BYTES);
    expect(approval.diffs[0]).toMatchObject({
      truncated: true,
      oldBytes: 400_000,
      newBytes: 400_000,
    });
    expect(cutOf(approval, 'diffs')).toBeDefined();
    expect(approval.diffsDropped).toBe(content.length - approval.diffs.length);
  }, 60_000);

  it('counts every diff the agent sent that is not shown, those the rules never saw among them', () => {
    const content = Array.from({ length: MAX_LOCATIONS + 200 }, (_, i) => ({
      type: 'diff',
      path: `/home/dev/project/f${i}.txt`,
      oldText: null,
      newText: `${i}\n`,
    }));
    const { approval } = boundApproval(
      approvalOf({ toolCallId: 't', kind: 'edit', title: 'edit', content }),
    );
    expect(approval.diffs).toHaveLength(MAX_DIFFS);
    expect(approval.diffsDropped).toBe(MAX_LOCATIONS + 200 - MAX_DIFFS);
    // A request whose diffs are all shown says nothing of the kind.
    const few = boundApproval(
      approvalOf({ toolCallId: 't', kind: 'edit', title: 'edit', content: content.slice(0, 3) }),
    );
    expect(few.approval.diffs).toHaveLength(3);
    expect(few.approval).not.toHaveProperty('diffsDropped');
  });

  it('keeps originals up to 16 MB per request; beyond, only their size and hash', () => {
    const huge = { content: 'z'.repeat(12 * MB) };
    const title = 't'.repeat(6 * MB);
    const { approval, originals } = boundApproval(
      approvalOf({ toolCallId: 't', title, rawInput: huge }),
    );
    expect(cutOf(approval, 'title')!.blob).toBe(sha256(title));
    expect(cutOf(approval, 'rawInput')!.blob).toBeUndefined();
    expect(cutOf(approval, 'rawInput')!.sha256).toBe(sha256(JSON.stringify(huge)));
    expect(originals.reduce((n, o) => n + Buffer.byteLength(textOf(o)), 0)).toBeLessThanOrEqual(
      STORED_ORIGINALS_MAX_BYTES,
    );
  }, 30_000);

  it('stays within about 1 MB of JSON when every part is at its worst', () => {
    const diff = (i: number) => ({
      type: 'diff',
      path: `/home/dev/project/${'p'.repeat(4000)}${i}`,
      oldText: 'o'.repeat(300_000),
      newText: 'n'.repeat(300_000),
    });
    const whole = approvalOf({
      toolCallId: 'i'.repeat(5000),
      kind: 'execute',
      title: '\u202e'.repeat(3 * MB),
      locations: Array.from({ length: 5000 }, (_, i) => ({ path: `/${'l'.repeat(5000)}${i}` })),
      content: [
        ...Array.from({ length: 120 }, (_, i) => diff(i)),
        ...Array.from({ length: 200 }, () => ({
          type: 'content',
          content: { type: 'text', text: 'c'.repeat(60_000) },
        })),
      ],
      rawInput: { command: `echo ${'a'.repeat(2 * MB)}`, cwd: 'c'.repeat(10_000) },
    });
    const { approval } = boundApproval(whole);
    expect(() => PendingApproval.parse(approval)).not.toThrow();
    expect(jsonBytes(approval)).toBeLessThanOrEqual(APPROVAL_MAX_JSON_BYTES * 1.1);
  }, 60_000);
});

describe('summarizeApproval', () => {
  it('bounds every field of the queue summary', () => {
    const { approval } = boundApproval(
      approvalOf({
        toolCallId: 't',
        kind: 'execute',
        title: 'T'.repeat(TITLE_MAX_CHARS * 2),
        rawInput: { command: 'c'.repeat(50_000) },
        locations: Array.from({ length: 50 }, (_, i) => ({ path: `/${'p'.repeat(600)}${i}` })),
      }),
    );
    const summary = PendingSummary.parse(
      summarizeApproval({ ...approval, agentName: 'n'.repeat(5000), cwd: 'w'.repeat(5000) }),
    );
    expect(summary.title.length).toBeLessThanOrEqual(SUMMARY_LIMITS.title);
    expect(summary.command!.length).toBeLessThanOrEqual(SUMMARY_LIMITS.command);
    expect(summary.paths).toHaveLength(SUMMARY_LIMITS.paths);
    expect(summary.paths.every((p) => p.length <= SUMMARY_LIMITS.path)).toBe(true);
    expect(summary.pathCount).toBe(50);
    expect(summary.truncated).toBe(true);
    expect(jsonBytes(summary)).toBeLessThan(4 * 1024);
  });
});

function withoutPreview(marker: TruncatedValue): Omit<TruncatedValue, 'preview'> {
  const { preview: _preview, ...rest } = marker;
  return rest;
}
