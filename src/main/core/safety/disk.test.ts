// The disk's facts in the warnings and the diff shown (pure: the facts are handed in).
import { describe, expect, it } from 'vitest';
import { computeWarnings, normalizeToolCall, prepareDiffs, withDiskBefore, type DiskView } from '.';

const ROOT = '/home/dev/project';

function run(oldText: string | null, newText: string, disk: Partial<DiskView>) {
  const path = `${ROOT}/a.txt`;
  const toolCall = normalizeToolCall({
    toolCallId: 'e',
    kind: 'edit',
    title: 'Edit a.txt',
    locations: [{ path }],
    content: [{ type: 'diff', path, oldText, newText }],
  });
  const view: DiskView = { cwd: ROOT, root: ROOT, gitDirs: [], paths: [], files: [], ...disk };
  const diffs = prepareDiffs(withDiskBefore(toolCall, view));
  const warnings = computeWarnings({
    toolCall,
    command: null,
    diffs,
    sessionCwd: ROOT,
    homeDir: '/home/dev',
    disk: view,
  });
  return { diffs, warnings };
}
const file = (text: string | null, exists = true) => ({ path: `${ROOT}/a.txt`, exists, text });

describe('the diff against the disk', () => {
  it('an edit shown as a new file over an existing one shows the file, and the loss, as danger', () => {
    const { diffs, warnings } = run(null, 'x\n', { files: [file('a\nb\nc\n')] });
    expect(diffs[0]).toMatchObject({ change: 'modify', oldText: 'a\nb\nc\n' });
    expect(warnings.map((w) => [w.code, w.severity])).toEqual([['disk_differs', 'danger']]);
    expect(warnings[0]!.message).toContain('as a new file, but it is on disk (3 lines)');
    expect(warnings[0]!.message).toContain('2 lines would be lost');
  });

  it('a before with no file on disk is a creation, with a caution', () => {
    const { diffs, warnings } = run('old\n', 'new\n', { files: [file(null, false)] });
    expect(diffs[0]).toMatchObject({ change: 'create', oldText: null });
    expect(warnings.map((w) => [w.code, w.severity])).toEqual([['disk_differs', 'caution']]);
  });

  it('a file not read (binary, too large) or a matching before changes nothing', () => {
    expect(run('a\n', 'b\n', { files: [file(null)] }).warnings).toEqual([]);
    expect(run('a\n', 'b\n', { files: [file('a\n')] }).warnings).toEqual([]);
  });

  it('a link that stays inside the folder is a caution; one that leaves it is a danger', () => {
    const inside = run('a\n', 'b\n', {
      paths: [
        { path: `${ROOT}/a.txt`, lexical: `${ROOT}/a.txt`, real: `${ROOT}/b.txt`, linked: true },
      ],
    });
    expect(inside.warnings.map((w) => [w.code, w.severity])).toEqual([['link_target', 'caution']]);
    const outside = run('a\n', 'b\n', {
      paths: [
        { path: `${ROOT}/a.txt`, lexical: `${ROOT}/a.txt`, real: '/etc/passwd', linked: true },
      ],
    });
    expect(outside.warnings[0]).toMatchObject({ code: 'link_target', severity: 'danger' });
  });
});
