// computeWarnings: everything the dialog must point out before a person decides.
//
// Severity table (danger = the dialog must make the person stop and read):
//   download_exec   danger: in the command            caution: in file content being written
//   secret_path     danger: written/moved/deleted, or read by a command that uses the network
//                   caution: read or used
//   bidi_control    danger: in the command (args, cwd) caution: title, paths, diffs, content, rawInput
//   zero_width      caution
//   ansi_escape     caution
//   title_mismatch  caution
//   outside_session caution
//   too_complex     danger: the command was too long or complex for the checks above to see all of it
//   lookalike       danger: in the command             caution: in a path
//   disk_differs    danger: the diff's "before" is not the file on disk (caution: no file there)
//   link_target     danger: a link leads to a protected file or out of the folder  caution: inside
//   protected_file  danger: a write to a file another program runs later
import type {
  CommandView,
  PreparedDiff,
  ToolCallSnapshot,
  Warning,
} from '../../../../shared/domain';
import { revealInvisibles } from '../../../../shared/invisible';
import { MAX_RAW_INPUT_STRINGS_SCANNED, MAX_SCAN_CHARS } from '../limits';
import { commandCalls } from '../script';
import { isRecord } from '../text';
import { downloadExecWarnings } from './download';
import { scanHidden } from './hidden';
import { scanLookalikes } from './lookalike';
import { diskWarnings, type DiskView } from '../disk';
import { outsideSessionWarnings, secretPathWarnings } from './paths';
import { collectPathRefs } from './refs';
import { WarningSink } from './sink';
import { titleMismatchWarnings } from './title';

export interface WarningInput {
  toolCall: ToolCallSnapshot;
  command: CommandView | null;
  diffs: PreparedDiff[];
  /** Absolute session folder. */
  sessionCwd: string;
  /** Home directory, for `~`, `$HOME` and per-user secret locations. */
  homeDir: string;
  /** What the disk says about the request's paths (gathered by the caller); absent: not looked. */
  disk?: DiskView | undefined;
  /**
   * Told when a check throws (a bug, never expected: the property tests feed hostile input). The
   * other checks still run; log it, because the failed check's warnings are missing.
   */
  onCheckError?: (check: string, error: unknown) => void;
}

/** Pure; never throws on hostile input (a failure inside one check cannot hide the others). */
export function computeWarnings(input: WarningInput): Warning[] {
  const sink = new WarningSink();
  const { toolCall, command, diffs, sessionCwd, homeDir } = input;
  const guard = <T>(check: string, run: () => T, fallback: T): T => {
    try {
      return run();
    } catch (error) {
      input.onCheckError?.(check, error);
      return fallback;
    }
  };
  const analysis = command ? guard('command analysis', () => commandCalls(command), null) : null;
  const refs = guard(
    'path collection',
    () => collectPathRefs({ toolCall, command, analysis, diffs, sessionCwd, homeDir }),
    [],
  );

  if (analysis?.tooComplex) {
    sink.add({
      code: 'too_complex',
      severity: 'danger',
      message: `${sentence(analysis.tooComplex)}: the other checks did not see all of it. Read it yourself.`,
      where: 'command',
    });
  }
  guard('hidden characters', () => hiddenCharacterWarnings(sink, input), undefined);
  guard('lookalike', () => lookalikeWarnings(sink, input), undefined);
  const { disk } = input;
  if (disk) guard('disk', () => diskWarnings(sink, toolCall, disk), undefined);
  guard('download_exec', () => downloadExecWarnings(sink, analysis, diffs), undefined);
  guard('secret_path', () => secretPathWarnings(sink, refs, analysis, homeDir), undefined);
  guard('outside_session', () => outsideSessionWarnings(sink, refs, sessionCwd), undefined);
  guard(
    'title_mismatch',
    () => titleMismatchWarnings(sink, { toolCall, command, analysis, refs, diffs }),
    undefined,
  );
  return sink.result();
}

/** The analysis says why in a clause (`the command is too long …`); the warning starts with it. */
function sentence(clause: string): string {
  return clause.charAt(0).toUpperCase() + clause.slice(1);
}

/** The command and the paths: where a letter that only looks like ASCII changes what happens. */
function lookalikeWarnings(sink: WarningSink, input: WarningInput): void {
  const { command, toolCall, diffs } = input;
  const cut = (text: string) =>
    text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  if (command)
    scanLookalikes(sink, {
      text: cut(command.command),
      where: 'command',
      label: 'The command',
      severity: 'danger',
    });
  const paths = new Set<string>();
  for (const l of toolCall.locations) paths.add(l.path);
  for (const d of diffs) {
    paths.add(d.path);
    if (d.oldPath !== null) paths.add(d.oldPath);
  }
  for (const path of paths)
    scanLookalikes(sink, {
      text: cut(path),
      where: 'path',
      label: `The path ${revealInvisibles(path)}`,
      severity: 'caution',
    });
}

function hiddenCharacterWarnings(sink: WarningSink, input: WarningInput): void {
  const { toolCall, command, diffs } = input;
  // Texts already scanned, so rawInput does not repeat what the title, command or a diff showed.
  const scanned = new Set<string>();
  const scan = (text: string, target: Omit<Parameters<typeof scanHidden>[1], 'text'>): void => {
    scanned.add(text);
    scanHidden(sink, {
      text: text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text,
      ...target,
    });
  };

  if (command) {
    scan(command.command, { where: 'command', label: 'The command', bidiDanger: true });
    command.args?.forEach((a) => scanned.add(a));
    if (command.cwd !== null)
      scan(command.cwd, {
        where: 'command',
        label: "The command's working directory",
        bidiDanger: true,
      });
  }
  // Gemini's title is its command: one warning, under 'command', is enough.
  if (!command || toolCall.title !== command.command) {
    scan(toolCall.title, { where: 'title', label: 'The title', prose: true });
  }
  for (const l of toolCall.locations) {
    if (!scanned.has(l.path))
      scan(l.path, {
        where: 'path',
        label: `The path ${revealInvisibles(l.path)}`,
        bidiDanger: false,
      });
  }
  for (const d of diffs) {
    const where = `diff:${revealInvisibles(d.path)}`;
    if (!scanned.has(d.path))
      scan(d.path, { where: 'path', label: `The path ${revealInvisibles(d.path)}` });
    if (d.oldPath !== null && !scanned.has(d.oldPath))
      scan(d.oldPath, { where: 'path', label: `The path ${revealInvisibles(d.oldPath)}` });
    for (const [age, text] of Object.entries({ old: d.oldText, new: d.newText })) {
      if (text !== null) {
        const label = `The ${age} text of ${revealInvisibles(d.path)}`;
        scan(text, { where, label, lines: true, prose: true });
      }
    }
  }
  // Full texts of diff items (possibly longer than the prepared copy) are not rescanned below.
  for (const item of toolCall.content) {
    if (!isRecord(item)) continue;
    if (item['type'] === 'diff') {
      for (const k of ['oldText', 'newText', 'path']) {
        const v = item[k];
        if (typeof v === 'string') scanned.add(v);
      }
    } else if (
      item['type'] === 'content' &&
      isRecord(item['content']) &&
      item['content']['type'] === 'text'
    ) {
      const text = item['content']['text'];
      if (typeof text === 'string' && !scanned.has(text))
        scan(text, { where: 'content', label: 'A text the agent attached', prose: true });
    }
  }
  scanRawInput(toolCall.rawInput, scanned, (text, key) =>
    scan(text, {
      where: `rawInput${key}`,
      label: key === '' ? 'The raw input' : `The input field ${key.replace(/^\./, '')}`,
      prose: true,
    }),
  );
}

/** String leaves of rawInput, breadth-first, bounded in nodes visited and queued. */
function scanRawInput(
  value: unknown,
  scanned: Set<string>,
  visit: (text: string, key: string) => void,
): void {
  const MAX_NODES = 100_000;
  const queue: Array<[unknown, string, number]> = [[value, '', 0]];
  let strings = 0;
  for (let head = 0; head < queue.length && strings < MAX_RAW_INPUT_STRINGS_SCANNED; head++) {
    const [v, key, depth] = queue[head] as [unknown, string, number];
    const room = (): boolean => queue.length < MAX_NODES;
    if (typeof v === 'string') {
      strings++;
      if (!scanned.has(v)) {
        scanned.add(v);
        visit(v, key);
      }
    } else if (Array.isArray(v) && depth < 16) {
      for (let i = 0; i < v.length && room(); i++) queue.push([v[i], `${key}[${i}]`, depth + 1]);
    } else if (isRecord(v) && depth < 16) {
      for (const k of Object.keys(v)) {
        if (!room()) break;
        const step = /^[A-Za-z_$][\w$]*$/.test(k)
          ? `.${k}`
          : `[${JSON.stringify(revealInvisibles(k))}]`;
        queue.push([v[k], `${key}${step}`, depth + 1]);
      }
    }
  }
}
