// title_mismatch: the agent's title says something the raw input does not.
//
// Heuristic (low false positives on the titles real agents write; see the tests):
// 0. No check when the title makes no claim: a synthesized title, or a generic tool name such as
//    opencode's "bash" / "edit".
// 1. Command, hidden action: the command performs a risky action (rm, curl, chmod, sudo, ssh,
//    git push --force, npm publish, …; see RISKY_PROGRAMS) and the title names none of the
//    programs and none of the paths the command runs/touches. Claude Code, Gemini and Codex put
//    the command (or its parsed form) in the title, so honest titles name their programs; a
//    descriptive title may name the action in plain words instead (SYNONYMS: "clean" for rm,
//    "download" for curl, …). Words are compared as a person sees them (invisible characters
//    removed, case folded).
// 2. Command, benign claim: the title claims a read-only action (read, list, show, search,
//    check, test, …, with no write/delete/install word) but the command also performs a risky
//    action or a write (redirection to a file, tee, cp, mv, sed -i, …) that the title does not
//    name.
// 3. Edit, benign claim: the request changes files (kind edit/delete/move or diffs) while the
//    title claims a read-only action.
// 4. Different file: the title mentions file names/paths and the request touches paths, but none
//    of the mentioned files is among them (compared by base name; a file named in the command
//    text counts as touched).
import type { CommandView, PreparedDiff, ToolCallSnapshot } from '../../../../shared/domain';
import { findHidden, revealInvisibles } from '../../../../shared/invisible';
import { synthesizedTitle } from '../normalize';
import { RISKY_PROGRAMS, WRITE_PROGRAMS } from '../../rules/shell/programs';
import type { Call, CommandAnalysis } from '../script';
import { baseName, excerpt } from '../text';
import { isDevicePath } from '../paths';
import { looksLikePath, type PathRef } from './refs';
import type { WarningSink } from './sink';

// prettier-ignore
const GENERIC = new Set([
  'bash', 'sh', 'shell', 'terminal', 'command', 'commands', 'exec', 'execute', 'run',
  'run command', 'run shell command', 'run_shell_command', 'shell command', 'execute command',
  'bash command', 'tool', 'tool call', 'edit', 'write', 'read', 'patch', 'apply_patch',
  'multiedit', 'delete', 'move', 'other', 'unknown tool', 'webfetch', 'external_directory',
  'permission request', 'permissions request',
]);

// prettier-ignore
const BENIGN = new Set([
  'read', 'reading', 'reads', 'view', 'viewing', 'views', 'list', 'listing', 'lists', 'show',
  'showing', 'shows', 'display', 'displaying', 'print', 'printing', 'search', 'searching', 'find',
  'finding', 'grep', 'check', 'checking', 'checks', 'inspect', 'inspecting', 'test', 'tests',
  'testing', 'lint', 'linting', 'status', 'count', 'counting', 'look', 'looking', 'examine',
  'examining', 'verify', 'verifying', 'explore', 'exploring', 'analyze', 'analyse', 'analyzing',
  'analysing', 'review', 'reviewing', 'describe', 'query', 'querying', 'diagnose', 'diagnosing',
  'preview', 'info', 'ls', 'cat',
]);

// prettier-ignore
const WRITE_WORDS = new Set([
  'write', 'writing', 'writes', 'create', 'creating', 'creates', 'edit', 'editing', 'edits',
  'update', 'updating', 'updates', 'modify', 'modifying', 'change', 'changing', 'replace',
  'replacing', 'delete', 'deleting', 'deletes', 'remove', 'removing', 'removes', 'rm', 'clean',
  'cleaning', 'cleanup', 'clear', 'clearing', 'purge', 'wipe', 'erase', 'install', 'installing',
  'uninstall', 'reinstall', 'download', 'downloading', 'upload', 'uploading', 'push', 'pushing',
  'publish', 'publishing', 'deploy', 'deploying', 'move', 'moving', 'rename', 'renaming', 'copy',
  'copying', 'overwrite', 'save', 'saving', 'fix', 'fixing', 'patch', 'patching', 'apply',
  'applying', 'format', 'formatting', 'chmod', 'chown', 'kill', 'stop', 'restart', 'reset',
  'commit', 'committing', 'generate', 'generating', 'set', 'setting', 'add', 'adding', 'append',
  'appending', 'insert', 'truncate', 'empty', 'sync', 'send', 'sending', 'post', 'fetch',
  'fetching', 'curl', 'wget', 'build', 'building', 'compile', 'compiling', 'make', 'setup',
]);

// Words by which an honest, descriptive title names a risky action ("Clean the build folder" for
// `rm -rf build`). A title naming the action in other words is not a mismatch. (Maps, like every
// table looked up by a program name: a program named `constructor` must not find Object's.)
const SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    rm: [
      'remove',
      'removes',
      'removing',
      'delete',
      'deletes',
      'deleting',
      'clean',
      'cleans',
      'cleaning',
      'cleanup',
      'purge',
      'wipe',
      'erase',
    ],
    rmdir: ['remove', 'removing', 'delete', 'deleting', 'clean', 'cleaning', 'cleanup'],
    unlink: ['remove', 'removing', 'delete', 'deleting'],
    shred: ['shred', 'wipe', 'erase', 'destroy'],
    curl: [
      'download',
      'downloads',
      'downloading',
      'fetch',
      'fetches',
      'fetching',
      'http',
      'https',
      'api',
      'upload',
      'uploading',
    ],
    wget: ['download', 'downloads', 'downloading', 'fetch', 'fetching'],
    chmod: ['permission', 'permissions', 'executable', 'mode'],
    chown: ['owner', 'ownership'],
    chgrp: ['group', 'ownership'],
    sudo: ['root', 'admin', 'administrator', 'privileges', 'elevated'],
    ssh: ['remote', 'server', 'connect', 'connecting', 'login'],
    scp: ['copy', 'copying', 'upload', 'uploading', 'download', 'remote', 'server'],
    rsync: ['sync', 'syncing', 'copy', 'copying', 'upload', 'deploy', 'backup', 'mirror'],
    kill: ['stop', 'stops', 'stopping', 'terminate', 'kill', 'killing'],
    pkill: ['stop', 'stopping', 'terminate', 'kill', 'killing'],
    killall: ['stop', 'stopping', 'terminate', 'kill', 'killing'],
    systemctl: ['service', 'services', 'restart', 'start', 'stop', 'enable', 'disable'],
    launchctl: ['service', 'agent', 'daemon', 'load', 'unload'],
    crontab: ['cron', 'schedule', 'scheduled'],
    truncate: ['truncate', 'empty', 'clear'],
    mount: ['mount', 'disk', 'volume'],
    umount: ['unmount', 'eject', 'disk', 'volume'],
    dd: ['disk', 'image', 'copy'],
  }),
);

const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    npm: new Set(['publish', 'unpublish']),
    pnpm: new Set(['publish']),
    yarn: new Set(['publish', 'npm']),
    bun: new Set(['publish']),
    cargo: new Set(['publish', 'yank']),
    gem: new Set(['push', 'yank']),
    twine: new Set(['upload']),
    docker: new Set(['push', 'rm', 'rmi', 'system']),
    kubectl: new Set(['delete', 'drain']),
    terraform: new Set(['destroy', 'apply']),
    helm: new Set(['uninstall', 'delete']),
  }),
);

interface Action {
  label: string;
  /** Words that, found in the title, count as naming this action. */
  names: string[];
  risky: boolean;
}

export interface TitleInput {
  toolCall: ToolCallSnapshot;
  command: CommandView | null;
  analysis: CommandAnalysis | null;
  refs: PathRef[];
  diffs: PreparedDiff[];
}

export function titleMismatchWarnings(sink: WarningSink, input: TitleInput): void {
  const { toolCall, command, analysis, refs, diffs } = input;
  const title = toolCall.title;
  if (title === synthesizedTitle(toolCall)) return;
  const visible = stripHidden(title);
  const clean = visible.toLowerCase();
  const tokens = tokenize(clean);
  if (tokens.size === 0 || GENERIC.has(clean.trim().replace(/[.:!]+$/, ''))) return;
  const quoted = `"${excerpt(revealInvisibles(title), 80)}"`;
  const named = (n: string): boolean => tokens.has(n) || tokens.has(n.replace(/[\d.]+$/, ''));
  const benign = [...tokens].find((t) => BENIGN.has(t));
  const claimsReadOnly = benign !== undefined && ![...tokens].some((t) => WRITE_WORDS.has(t));

  if (command && analysis) {
    const actions = dedupe(analysis.calls.flatMap(actionsOf));
    const unnamed = actions.filter((a) => !a.names.some(named));
    const unnamedRisky = unnamed.filter((a) => a.risky);
    const namesProgram = [...analysis.programs].some(named);
    const namesPath = refs.some(
      (r) =>
        r.fromCommand &&
        r.pathLike &&
        (named(baseName(r.raw).toLowerCase()) || tokens.has(r.raw.toLowerCase())),
    );
    if (claimsReadOnly && unnamed.length > 0) {
      sink.add({
        code: 'title_mismatch',
        severity: 'caution',
        message: `The title ${quoted} describes a read-only action ("${benign}") but the command also ${list(unnamed)}.`,
        where: 'title',
      });
    } else if (!namesProgram && !namesPath && unnamedRisky.length > 0) {
      sink.add({
        code: 'title_mismatch',
        severity: 'caution',
        message: `The title ${quoted} names none of the programs or files of the command, which ${list(unnamedRisky)}.`,
        where: 'title',
      });
    }
  } else if (claimsReadOnly && (changesFiles(toolCall.kind) || diffs.length > 0)) {
    const changed = [
      ...new Set([...diffs.map((d) => d.path), ...toolCall.locations.map((l) => l.path)]),
    ];
    sink.add({
      code: 'title_mismatch',
      severity: 'caution',
      message: `The title ${quoted} describes a read-only action ("${benign}") but the request ${verbOf(toolCall.kind)} ${paths(changed)}.`,
      where: 'title',
    });
  }

  const mentioned = [...tokenize(visible)].filter(
    (t) => looksLikePath(t) && !/^[\d.]+$/.test(t) && !t.includes('://'),
  );
  const touched = refs.filter(
    (r) => r.pathLike && !(r.resolved !== null && isDevicePath(r.resolved)),
  );
  if (mentioned.length > 0 && touched.length > 0) {
    const text = (command?.command ?? '').toLowerCase();
    const bases = new Set(touched.map((r) => baseName(r.raw).toLowerCase()));
    const matches = (mentionedAs: string): boolean => {
      const m = mentionedAs.toLowerCase();
      return (
        bases.has(baseName(m)) ||
        (text !== '' && text.includes(m)) ||
        touched.some((r) => r.raw.toLowerCase().endsWith(m))
      );
    };
    if (!mentioned.some(matches)) {
      sink.add({
        code: 'title_mismatch',
        severity: 'caution',
        message: `The title ${quoted} mentions ${mentioned
          .slice(0, 3)
          .map((m) => revealInvisibles(m))
          .join(', ')} but the request touches ${paths(touched.map((r) => r.raw))}.`,
        where: 'title',
      });
    }
  }
}

function actionsOf(call: Call): Action[] {
  const out: Action[] = [];
  for (const w of call.wrappers)
    if (RISKY_PROGRAMS.has(w)) out.push({ label: `runs ${w}`, names: namesOf(w), risky: true });
  for (const r of call.redirects) {
    const v = r.target;
    if (!v || !['>', '>>', '>|', '&>', '&>>', '<>'].includes(r.op) || isDevicePath(v)) continue;
    out.push({
      label: `writes ${excerpt(revealInvisibles(v), 60)}`,
      names: [baseName(v).toLowerCase()],
      risky: false,
    });
  }
  const p = call.program;
  if (p === null) return out;
  const { args } = call;
  if (RISKY_PROGRAMS.has(p) || /^mkfs(?:\..+)?$/.test(p)) {
    out.push({ label: `runs ${p}`, names: namesOf(p), risky: true });
  } else if (p === 'git') {
    const sub = gitSubcommand(args);
    const forced =
      sub === 'push' &&
      args.some(
        (a) =>
          /^(?:--force(?:-with-lease.*)?|-f|--mirror|--delete|-d|--prune)$/.test(a) ||
          /^[+:]/.test(a),
      );
    if (forced)
      out.push({ label: 'runs git push --force', names: ['git', 'push', 'force'], risky: true });
    if (sub === 'reset' && args.includes('--hard'))
      out.push({ label: 'runs git reset --hard', names: ['git', 'reset'], risky: true });
    if (sub === 'clean' && args.some((a) => /^-[a-z]*f/.test(a)))
      out.push({ label: 'runs git clean -f', names: ['git', 'clean'], risky: true });
    if (sub === 'filter-branch' || sub === 'filter-repo')
      out.push({ label: `runs git ${sub}`, names: ['git', sub], risky: true });
  } else if (
    p === 'find' &&
    args.some((a) => a === '-delete' || a === '-exec' || a === '-execdir')
  ) {
    out.push({ label: 'runs find -delete/-exec', names: ['find'], risky: true });
  } else if (SUBCOMMANDS.has(p)) {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub !== undefined && SUBCOMMANDS.get(p)?.has(sub))
      out.push({ label: `runs ${p} ${sub}`, names: [p, sub], risky: true });
  }
  if (
    WRITE_PROGRAMS.has(p) ||
    ((p === 'sed' || p === 'perl') && args.some((a) => /^-[a-zA-Z]*i/.test(a)))
  ) {
    out.push({ label: `runs ${p}`, names: [p], risky: false });
  }
  return out;
}

function namesOf(program: string): string[] {
  return [program, ...(SYNONYMS.get(program) ?? [])];
}

function gitSubcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '-C' || a === '-c' || a === '--git-dir' || a === '--work-tree') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

function dedupe(actions: Action[]): Action[] {
  const seen = new Set<string>();
  return actions.filter((a) => (seen.has(a.label) ? false : (seen.add(a.label), true)));
}

function list(actions: Action[]): string {
  const shown = actions.slice(0, 4).map((a) => a.label);
  return actions.length > 4 ? `${shown.join(', ')} and more` : shown.join(', ');
}

function paths(list: string[]): string {
  const all = [...new Set(list)];
  const shown = all.slice(0, 3).map((p) => excerpt(revealInvisibles(p), 80));
  return all.length > 3 ? `${shown.join(', ')} (+${all.length - 3} more)` : shown.join(', ');
}

function changesFiles(kind: ToolCallSnapshot['kind']): boolean {
  return kind === 'edit' || kind === 'delete' || kind === 'move';
}

function verbOf(kind: ToolCallSnapshot['kind']): string {
  return kind === 'delete' ? 'deletes' : kind === 'move' ? 'moves' : 'changes';
}

function stripHidden(text: string): string {
  const hidden = findHidden(text);
  if (hidden.length === 0) return text;
  let out = '';
  let from = 0;
  for (const h of hidden) {
    out += text.slice(from, h.index);
    from = h.index + (h.codePoint > 0xffff ? 2 : 1);
  }
  return out + text.slice(from);
}

/** Lower-cased words of a title, with trailing punctuation and quotes removed; paths kept whole. */
function tokenize(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const raw of text.split(/[^\p{L}\p{N}_.+/\\~@:-]+/u)) {
    // Leading dashes go (`--force` names "force"); a leading dot stays (`.env` is a file name).
    const t = raw.replace(/^[:-]+|[.:,;!?]+$/g, '');
    if (t === '') continue;
    tokens.add(t);
    if (/[/\\]/.test(t)) {
      const base = baseName(t);
      if (base !== '') tokens.add(base);
    }
  }
  return tokens;
}
