// A command's preview in words: its state, each change, where a change lands. Pure, so the words a
// person reads are tested apart from how they are drawn.
import {
  previewSummary,
  type CommandPreview,
  type PreviewChange,
  type PreviewCounts,
} from '../../../shared/preview';
import { formatCount } from '../components/format';

export type PreviewTone = 'neutral' | 'caution' | 'quiet';

/** Listed one by one at once; a longer list opens on demand. */
export const OPEN_CHANGES = 30;

export const CHANGE_WORD: Record<PreviewChange['change'], string> = {
  created: 'New',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
};

/** The mark beside the word: a shape, so a change never reads by its colour alone. */
export const CHANGE_MARK: Record<PreviewChange['change'], string> = {
  created: '+',
  modified: '~',
  deleted: '−',
  renamed: '→',
};

/** Said of a change that does not land in a writable root; the same words as the warnings. */
export const PLACE_WORD: Record<Exclude<PreviewChange['place'], 'root'>, string> = {
  outside: 'outside the project',
  protected: 'a file other programs run',
};

/** Everything the preview changed, whether listed or not. */
export const changeTotal = (counts: PreviewCounts): number =>
  counts.created + counts.modified + counts.deleted + counts.renamed;

/** 1234 → "1.2 s", 80 → "80 ms", 75_000 → "1 min 15 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60)
    return `${seconds < 10 && !Number.isInteger(seconds) ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

const boundOf = (preview: CommandPreview) => formatDuration(preview.timeoutMs);

/**
 * The preview's state as one line, the first thing the section says. Never claims more than the
 * run showed: a run cut short says what stopped it, a command not run says why.
 */
export function previewHeadline(preview: CommandPreview): { tone: PreviewTone; text: string } {
  switch (preview.state) {
    case 'running':
      return { tone: 'neutral', text: `Previewing… (at most ${boundOf(preview)})` };
    case 'done': {
      const line = previewSummary(preview);
      return { tone: 'neutral', text: line === 'no changes' ? 'No changes' : capitalize(line) };
    }
    case 'incomplete':
      return { tone: 'caution', text: `Incomplete: ${incompleteWhy(preview)}` };
    case 'not_previewed':
      return { tone: 'quiet', text: `Not previewed: ${notPreviewedWhy(preview)}` };
    case 'unavailable':
      return { tone: 'quiet', text: 'Preview not available on this system' };
  }
}

function incompleteWhy(preview: CommandPreview): string {
  switch (preview.reason) {
    case 'network':
      return 'needed the network';
    case 'time':
      return `still running after ${boundOf(preview)}`;
    case 'limits':
      return 'hit a bound';
    default:
      return 'cut short';
  }
}

function notPreviewedWhy(preview: CommandPreview): string {
  switch (preview.reason) {
    case 'title_only':
      return "the command is only the agent's title";
    case 'off':
      return 'off for this agent';
    case 'rule_decided':
      return 'a rule decided it';
    default:
      return 'Gatehouse did not run it';
  }
}

/**
 * What a run cut short found, as the finished one's headline says it ("Changes 3 files, tried
 * api.example.com"); null when it found nothing or was not cut short.
 */
export function partialSummary(preview: CommandPreview): string | null {
  if (preview.state !== 'incomplete') return null;
  const line = previewSummary({ ...preview, state: 'done' });
  return line === 'no changes' ? null : capitalize(line);
}

const UNTIL: Record<string, string> = {
  network: 'without the network',
  limits: 'until it hit the bound',
  time: 'before it was stopped',
};

/** What an incomplete preview's list means, said once above it. */
export function partialNote(preview: CommandPreview): string | null {
  if (preview.state !== 'incomplete') return null;
  const until = UNTIL[preview.reason ?? ''] ?? 'before it was cut short';
  return changeTotal(preview.counts) > 0
    ? `What it changed ${until}; it may do more when it runs for real.`
    : `It changed nothing ${until}; it may change files when it runs for real.`;
}

/** The collapsed list's summary: "3,412 changes — show the first 200", or "45 changes — show all". */
export function collapsedLabel(total: number, listed: number): string {
  const all = `${formatCount(total)} change${total === 1 ? '' : 's'}`;
  return listed < total ? `${all} — show the first ${formatCount(listed)}` : `${all} — show all`;
}

/**
 * A changed path as the list shows it: relative to the session folder when inside it (what a
 * person thinks in: `build/app.js`), whole otherwise, so a path outside never looks like one inside.
 */
export function shownPath(path: string, cwd: string): string {
  const root = cwd.replace(/\/+$/, '');
  if (root && path.startsWith(`${root}/`) && path.length > root.length + 1)
    return path.slice(root.length + 1);
  return path;
}

/** The exit as words: "exit code 0", or how it ended when it did not exit by itself. */
export function exitWords(preview: CommandPreview): string | null {
  if (preview.state !== 'done' && preview.state !== 'incomplete') return null;
  if (preview.exitCode !== null) return `exit code ${preview.exitCode}`;
  return preview.state === 'incomplete' ? 'stopped before it exited' : null;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
