// download_exec: code fetched from the network and run in the same breath, before anyone (or any
// rule) could read it.
import type { PreparedDiff } from '../../../../shared/domain';
import { revealInvisibles } from '../../../../shared/invisible';
import {
  DOWNLOADERS,
  normalizeProgram,
  POWERSHELL_EVAL,
  runsCode,
} from '../../rules/shell/programs';
import { commandCalls, type Call, type CommandAnalysis } from '../script';
import { baseName, excerpt } from '../text';
import type { WarningSink } from './sink';

/** One finding, without a location (the command, or a line of a diff). */
export function findDownloadExec(analysis: CommandAnalysis): string[] {
  const found: string[] = [];
  const { calls } = analysis;
  // One finding per download: `sh -c "$(curl …)"` is seen both in sh's words and in its script.
  const reported = new Set<string>();
  const report = (d: Call, what: string): void => {
    const key = `${d.program ?? ''}\u0000${d.args.join(' ')}`;
    if (reported.has(key)) return;
    reported.add(key);
    found.push(what);
  };

  // curl … | sh, wget -qO- … | sudo bash, iwr … | iex
  calls.forEach((d, di) => {
    if (!isDownloader(d)) return;
    for (let ei = 0; ei < calls.length; ei++) {
      const e = calls[ei];
      if (!e || ei === di || !d.pipe || e.pipe?.id !== d.pipe.id || e.pipe.stage <= d.pipe.stage)
        continue;
      if (runsStdin(e)) {
        report(
          d,
          `downloads with ${name(d)} and pipes it straight into ${name(e)}, which runs whatever the server sends`,
        );
        return;
      }
    }
  });

  // bash <(curl …), sh -c "$(curl …)", eval "$(wget -O- …)", $(curl …) as a command
  for (const d of calls) {
    const parent = d.within?.parent;
    if (!isDownloader(d) || !d.within || !parent || d.within.how === 'code') continue;
    const how =
      d.within.how === 'process-substitution' ? 'process substitution' : 'command substitution';
    if (d.within.asProgram) report(d, `runs the output of ${name(d)} as a command (${how})`);
    else if (runsCodeOrEval(parent)) {
      report(d, `runs code downloaded by ${name(d)} with ${name(parent)} (${how})`);
    }
  }

  // curl -o x.sh URL && chmod +x x.sh && ./x.sh ; wget URL; bash install.sh
  calls.forEach((d, di) => {
    if (!isDownloader(d)) return;
    const file = downloadTarget(d);
    if (file !== null) {
      const target = baseName(file).toLowerCase();
      for (const e of calls.slice(di + 1)) {
        if (executesFile(e, target)) {
          report(
            d,
            `downloads ${excerpt(revealInvisibles(file), 80)} with ${name(d)} and then runs it`,
          );
          return;
        }
      }
    }
    const later = calls.slice(di + 1);
    const chmod = later.findIndex(grantsExecute);
    if (chmod !== -1 && later.slice(chmod + 1).some(runsPathProgram)) {
      report(d, `downloads with ${name(d)}, makes a file executable and runs it`);
    }
  });

  // PowerShell shapes, when the POSIX reading found nothing (iwr … | iex is found by both).
  if (found.length === 0) {
    for (const text of analysis.texts) {
      for (const [re, what] of POWERSHELL) {
        if (re.test(text)) found.push(what);
      }
    }
  }
  return [...new Set(found)];
}

// PowerShell has no POSIX shape; these are matched on the text (case-insensitive, as PowerShell is).
const POWERSHELL: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget|downloadstring|downloaddata)\b[^\n]*?\|\s*(?:iex|invoke-expression)\b/i,
    'downloads with PowerShell and pipes it into Invoke-Expression',
  ],
  [
    /\b(?:iex|invoke-expression)\b[\s(&$]*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?\s*new-object\s+(?:system\.)?net\.webclient)/i,
    'runs code downloaded by PowerShell with Invoke-Expression',
  ],
  [
    /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n|;&]*?\s[-/]e(?:c|n(?:c(?:o(?:d(?:e(?:d(?:c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?)?)?)?)?)?)?)?\s+["']?[A-Za-z0-9+/=]{8,}/i,
    'runs a base64-encoded PowerShell command (-EncodedCommand), whose content this dialog cannot show',
  ],
];

export function downloadExecWarnings(
  sink: WarningSink,
  analysis: CommandAnalysis | null,
  diffs: PreparedDiff[],
): void {
  if (analysis) {
    for (const what of findDownloadExec(analysis)) {
      sink.add({
        code: 'download_exec',
        severity: 'danger',
        message: `The command ${what}.`,
        where: 'command',
      });
    }
  }
  for (const d of diffs) scanDiff(sink, d);
}

const QUICK =
  /curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|\bnc\b|socat|powershell|pwsh/i;
const MAX_DIFF_LINES_CHECKED = 200;

/**
 * A file being written that contains a download-and-run line (an install script, a CI step, a
 * package.json script) does not run now, so this is a caution. Only lines that are new in this
 * change are checked, at most 200 of them, on the displayed text.
 */
function scanDiff(sink: WarningSink, diff: PreparedDiff): void {
  const text = diff.newText;
  if (diff.binary || text === null || !QUICK.test(text)) return;
  const old = diff.oldText ?? '';
  const lines = text.split('\n');
  let checked = 0;
  for (let i = 0; i < lines.length && checked < MAX_DIFF_LINES_CHECKED; i++) {
    const line = lines[i] ?? '';
    if (!QUICK.test(line) || !/[|`]|\$\(|<\(|&&|;|iex|-e/i.test(line)) continue;
    if (old !== '' && old.includes(line)) continue;
    checked++;
    // Lines inside JSON or YAML are often quoted; analyse the line as written.
    const found = findDownloadExec(commandCalls({ command: line.trim(), args: null }));
    if (found.length === 0) continue;
    sink.add({
      code: 'download_exec',
      severity: 'caution',
      message: `The new content of ${revealInvisibles(diff.path)} contains a command that ${found[0]} (${excerpt(revealInvisibles(line), 100)}); it runs whenever that file is executed.`,
      where: `diff:${revealInvisibles(diff.path)} line ${i + 1}`,
    });
  }
}

function name(call: Call): string {
  return excerpt(revealInvisibles(call.program ?? call.programWord ?? 'a command'), 40);
}

function isDownloader(call: Call): boolean {
  return call.program !== null && DOWNLOADERS.has(call.program);
}

/** Does this call run a program it reads from stdin? */
function runsStdin(call: Call): boolean {
  return call.readsCodeFromInput || (call.program !== null && POWERSHELL_EVAL.has(call.program));
}

/** A shell, an interpreter or `eval`: it runs the text it is given as code. */
function runsCodeOrEval(call: Call): boolean {
  return call.program !== null && (runsCode(call.program) || call.program === 'eval');
}

/** Non-option arguments of a call (values of `--opt=value` included), as written. */
function operands(call: Call): string[] {
  return call.args.filter((w) => !(w.startsWith('-') && w.length > 1));
}

/** The file a download writes to, or null for stdout / unknown. */
function downloadTarget(call: Call): string | null {
  const { args } = call;
  let file: string | null = null;
  let remoteName = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i] ?? '';
    const lower = v.toLowerCase();
    if (call.program === 'curl') {
      if (v === '-o' || v === '--output') file = args[++i] ?? null;
      else if (v.startsWith('--output=')) file = v.slice(9);
      else if (v === '-O' || v === '--remote-name') remoteName = true;
      else if (/^-[a-zA-Z]+$/.test(v) && v.includes('O')) remoteName = true;
      else if (/^-[a-zA-Z]*o.+$/.test(v) && !v.startsWith('--')) file = v.slice(v.indexOf('o') + 1);
    } else if (call.program === 'wget') {
      const cluster = /^-[a-zA-Z]*O(.*)$/.exec(v);
      if (v === '--output-document') file = args[++i] ?? null;
      else if (v.startsWith('--output-document=')) file = v.slice(18);
      else if (cluster && !v.startsWith('--'))
        file = cluster[1] !== '' ? (cluster[1] ?? null) : (args[++i] ?? null);
    } else if (
      lower === '-outfile' ||
      (call.program === 'aria2c' && (v === '-o' || v === '--out'))
    ) {
      file = args[++i] ?? null;
    }
  }
  const url = args.find((a) => a.includes('://'));
  if (file === null && (remoteName || (call.program === 'wget' && url))) {
    const path = url ? url.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '') : '';
    file = baseName(path) || 'index.html';
  }
  const redirect = call.redirects.find(
    (r) => (r.op === '>' || r.op === '>>' || r.op === '>|') && r.target,
  );
  if (file === null && redirect?.target) file = redirect.target;
  if (file === null || file === '-' || file === '/dev/stdout' || file === '') return null;
  return file;
}

function executesFile(call: Call, target: string): boolean {
  const word = call.programWord;
  if (word !== null && /[/\\]/.test(word) && normalizeProgram(word) === target) return true;
  if (runsCodeOrEval(call)) {
    const first = operands(call)[0];
    if (first !== undefined && baseName(first).toLowerCase() === target) return true;
  }
  return false;
}

function grantsExecute(call: Call): boolean {
  if (call.program !== 'chmod') return false;
  return call.args.some((v) => {
    if (/(?:^|,)[ugoa]*[+=][rwXst]*x/.test(v)) return true;
    return /^[0-7]{3,4}$/.test(v) && /[1357]/.test(v.slice(-3));
  });
}

function runsPathProgram(call: Call): boolean {
  const word = call.programWord ?? '';
  return (
    word.startsWith('./') ||
    word.startsWith('../') ||
    (word.startsWith('/') && !/^\/(?:usr\/)?s?bin\//.test(word)) ||
    word.startsWith('~/')
  );
}
