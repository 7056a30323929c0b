// Every path a request names — locations, diff paths, rawInput path fields, the command's
// directory, redirections and program arguments — with whether it is read or written, resolved
// once for the secret_path, outside_session and title_mismatch checks.
import { isAbsolute } from 'node:path';
import type { CommandView, PreparedDiff, ToolCallSnapshot } from '../../../../shared/domain';
import { movePair } from '../diff';
import { revealInvisibles } from '../../../../shared/invisible';
import { isDevicePath, resolvePath } from '../paths';
import type { Call, CommandAnalysis } from '../script';
import { excerpt, isRecord, isStringArray, ownField, stringField } from '../text';

export type Access = 'read' | 'write' | 'access';

export interface PathRef {
  raw: string;
  /** Absolute and normalized; null when it depends on the shell ($VAR, ~user, …). */
  resolved: string | null;
  access: Access;
  where: string;
  /** Noun phrase for messages, e.g. "The diff path", "An argument of rm". */
  label: string;
  fromCommand: boolean;
  /** Looks like a file path (for title comparison). */
  pathLike: boolean;
}

export interface RefInput {
  toolCall: ToolCallSnapshot;
  command: CommandView | null;
  analysis: CommandAnalysis | null;
  diffs: PreparedDiff[];
  sessionCwd: string;
  homeDir: string;
}

// prettier-ignore
const RAW_PATH_KEYS = [
  'file_path', 'filePath', 'filepath', 'path', 'absolute_path', 'notebook_path', 'target_file',
  'targetFile', 'source', 'destination', 'old_path', 'new_path', 'oldPath', 'newPath', 'src',
  'dst', 'source_path', 'destination_path', 'sourcePath', 'destinationPath',
];
const RAW_PATH_LIST_KEYS = ['paths', 'file_paths', 'files'];

/** Records one path: `from` is the folder a relative path starts from (null: it stays unresolved). */
type Add = (
  raw: string,
  access: Access,
  where: string,
  label: string,
  fromCommand: boolean,
  from: string | null,
) => void;

export function collectPathRefs(input: RefInput): PathRef[] {
  const { toolCall, command, analysis, diffs, sessionCwd, homeDir } = input;
  const refs: PathRef[] = [];
  const base = isAbsolute(sessionCwd) ? sessionCwd : null;
  const kindAccess: Access =
    toolCall.kind === 'edit' || toolCall.kind === 'delete' || toolCall.kind === 'move'
      ? 'write'
      : toolCall.kind === 'read' || toolCall.kind === 'search'
        ? 'read'
        : 'access';
  const add: Add = (raw, access, where, label, fromCommand, from) => {
    if (raw === '') return;
    const resolved = resolvePath(raw, from, homeDir);
    if (resolved !== null && isDevicePath(resolved)) return;
    refs.push({ raw, resolved, access, where, label, fromCommand, pathLike: looksLikePath(raw) });
  };

  for (const l of toolCall.locations) add(l.path, kindAccess, 'path', 'The location', false, base);
  for (const d of diffs) {
    const where = `diff:${revealInvisibles(d.path)}`;
    add(d.path, 'write', where, 'The changed file', false, base);
    if (d.oldPath !== null) add(d.oldPath, 'write', where, 'The moved file', false, base);
  }

  const raw = toolCall.rawInput;
  if (isRecord(raw)) {
    for (const key of RAW_PATH_KEYS) {
      const value = stringField(raw, key);
      if (value !== undefined)
        add(value, kindAccess, `rawInput.${key}`, `The input field ${key}`, false, base);
    }
    if (toolCall.kind === 'move') {
      const pair = movePair(raw);
      if (pair) {
        add(pair.source, 'write', 'rawInput', 'The move source', false, base);
        add(pair.destination, 'write', 'rawInput', 'The move destination', false, base);
      }
    }
    for (const key of RAW_PATH_LIST_KEYS) {
      const list = ownField(raw, key);
      if (isStringArray(list)) {
        for (const value of list.slice(0, 1000))
          add(value, kindAccess, `rawInput.${key}`, `The input field ${key}`, false, base);
      }
    }
    const changes = ownField(raw, 'changes');
    if (isRecord(changes)) {
      for (const path of Object.keys(changes).slice(0, 1000)) {
        add(path, 'write', 'rawInput.changes', 'The changed file', false, base);
        const change = changes[path];
        const update = isRecord(change)
          ? stringField(change, 'type') === 'update'
            ? change
            : ownField(change, 'update')
          : null;
        const to = isRecord(update) ? stringField(update, 'move_path') : undefined;
        if (to) add(to, 'write', 'rawInput.changes', 'The move destination', false, base);
      }
    }
  }

  if (command) {
    let cwd = command.cwd !== null ? resolvePath(command.cwd, base, homeDir) : base;
    if (command.cwd !== null)
      add(command.cwd, 'access', 'command', "The command's working directory", true, base);
    if (analysis) {
      for (const call of analysis.calls) {
        addCallRefs(call, cwd, add);
        // `cd DIR && …`: later relative paths of the same line start from DIR.
        if ((call.program === 'cd' || call.program === 'pushd') && call.within === null) {
          const target = call.args.find((a) => !a.startsWith('-'));
          const next = target !== undefined ? resolvePath(target, cwd, homeDir) : null;
          if (next !== null) cwd = next;
        }
      }
    }
  }
  return refs;
}

// prettier-ignore
const WRITES_ALL = new Set([
  'rm', 'rmdir', 'shred', 'unlink', 'srm', 'truncate', 'touch', 'mkdir', 'chmod', 'chown', 'chgrp',
  'chattr', 'tee', 'mv', 'remove-item', 'del', 'rd', 'set-content', 'out-file',
]);
const WRITES_LAST = new Set(['cp', 'install', 'ln', 'rsync', 'scp']);
/** Options whose next word is a file the program writes (a Map: no `constructor` from Object). */
const OUTPUT_FLAGS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    curl: new Set(['-o', '--output', '-c', '--cookie-jar', '-D', '--dump-header']),
    wget: new Set(['-O', '--output-document', '-o', '--output-file', '-P', '--directory-prefix']),
    'ssh-keygen': new Set(['-f']),
    tar: new Set(['-C', '--directory']),
    git: new Set(['-C']),
    'invoke-webrequest': new Set(['-outfile']),
    iwr: new Set(['-outfile']),
    aria2c: new Set(['-o', '--out', '-d', '--dir']),
  }),
);

function addCallRefs(call: Call, cwd: string | null, add: Add): void {
  const program = call.program;
  const label = program
    ? `An argument of ${excerpt(revealInvisibles(program), 40)}`
    : 'An argument of the command';
  for (const r of call.redirects) {
    // Here-documents and here-strings carry text, not a file name.
    if (!r.target || r.op === '<<' || r.op === '<<-' || r.op === '<<<') continue;
    const v = r.target;
    if (/^[<>]&/.test(r.op) && /^(?:\d+|-)$/.test(v)) continue;
    add(v, r.op === '<' ? 'read' : 'write', 'command', 'The redirection target', true, cwd);
  }
  if (!program) return;
  const outputFlags = OUTPUT_FLAGS.get(program);
  const inPlace =
    (program === 'sed' || program === 'perl') &&
    call.args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
  const values: Array<{ value: string; access: Access }> = [];
  for (let i = 0; i < call.args.length; i++) {
    // The script of `sh -c '…'` / `python -c '…'` is code (analysed as such), not a path.
    if (i === call.codeArg) continue;
    let v = call.args[i] ?? '';
    let access: Access = 'read';
    if (v.startsWith('-') && v.length > 1) {
      const eq = v.indexOf('=');
      const flag = eq === -1 ? v : v.slice(0, eq);
      if (outputFlags?.has(flag.toLowerCase()) || outputFlags?.has(flag)) {
        if (eq !== -1) values.push({ value: v.slice(eq + 1), access: 'write' });
        else if (i + 1 < call.args.length) {
          values.push({ value: call.args[i + 1] ?? '', access: 'write' });
          i++;
        }
        continue;
      }
      if (eq === -1) continue;
      v = v.slice(eq + 1);
    } else if (program === 'dd' && /^(?:if|of)=/.test(v)) {
      access = v.startsWith('of=') ? 'write' : 'read';
      v = v.slice(3);
    }
    if (v.startsWith('@')) v = v.slice(1); // curl -d @file
    const at = v.indexOf('=@'); // curl -F name=@file
    if (at !== -1) v = v.slice(at + 2);
    values.push({ value: v, access });
  }
  const operands = values.filter((o) => o.value !== '' && !o.value.includes('://'));
  operands.forEach((o, index) => {
    let access = o.access;
    if (access === 'read') {
      if (WRITES_ALL.has(program) || inPlace) access = 'write';
      else if (WRITES_LAST.has(program) && index === operands.length - 1 && operands.length > 1)
        access = 'write';
    }
    add(o.value, access, 'command', label, true, cwd);
  });
}

const FILE_EXT =
  /\.(?:[cm]?[jt]sx?|json5?|md|mdx|txt|py|rb|rs|go|java|kt|kts|swift|c|cc|cpp|h|hpp|cs|php|sh|bash|zsh|fish|ps1|bat|cmd|ya?ml|toml|ini|cfg|conf|env|lock|html?|css|scss|less|xml|sql|csv|log|pem|key|crt|cer|p12|pfx|vue|svelte|lua|pl|r|dart|scala|ex|exs|erl|hs|ml|tf|gradle|properties|plist|db|sqlite|zip|tar|gz|tgz|png|jpe?g|gif|svg|pdf|ipynb|dockerfile|makefile|service|pub)$/i;

/** Does this word look like a file path rather than an ordinary word? */
export function looksLikePath(v: string): boolean {
  if (v.includes('://')) return false;
  return (
    v.includes('/') ||
    v.includes('\\') ||
    v.startsWith('~') ||
    /^\.[A-Za-z0-9_][\w.-]*$/.test(v) ||
    FILE_EXT.test(v)
  );
}
