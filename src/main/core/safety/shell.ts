// A small, forgiving POSIX-shell reader for warnings: enough to know which programs a command line
// runs, with which words, redirections and pipes, and what it nests in $(…), `…`, <(…) and
// here-documents. It never executes or expands anything, never throws, and runs in linear time
// on hostile input (unbalanced quotes simply run to the end). The rule layer has its own parser;
// this one only has to be good enough to describe and warn.

export interface ShellSub {
  /** $(…) and `…` are command substitutions; <(…) and >(…) process substitutions. */
  kind: 'command' | 'process';
  body: string;
}

export interface ShellWord {
  /** After quote removal; substitutions and parameter expansions are kept as written. */
  value: string;
  /** Source text. */
  raw: string;
  quoted: boolean;
  /** Contains a parameter expansion or substitution, so `value` is not what will run. */
  expands: boolean;
  subs: ShellSub[];
}

export interface ShellRedirect {
  op: string;
  /** Explicit file descriptor (`2>`), if any. */
  fd: string | null;
  target: ShellWord | null;
  /** Body of a here-document (`<<EOF`). */
  heredoc: string | null;
}

export interface ShellCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Commands joined by `|` share a pipeline number; `stage` is the position within it. */
  pipeline: number;
  stage: number;
  /** Operator after this command: | || && ; & or newline; null at the end. */
  next: string | null;
}

const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const REDIRECT_OPS = ['&>>', '&>', '>>', '>|', '>&', '<<<', '<<-', '<<', '<>', '<&', '>', '<'];

export function parseShell(src: string): ShellCommand[] {
  return new Reader(src).run();
}

interface PendingHeredoc {
  redirect: ShellRedirect;
  delimiter: string;
  stripTabs: boolean;
}

class Reader {
  private i = 0;
  private pipeline = 0;
  private stage = 0;
  private words: ShellWord[] = [];
  private redirects: ShellRedirect[] = [];
  private heredocs: PendingHeredoc[] = [];
  private readonly out: ShellCommand[] = [];

  constructor(private readonly s: string) {}

  run(): ShellCommand[] {
    const s = this.s;
    const n = s.length;
    while (this.i < n) {
      const c = s[this.i] ?? '';
      const d = s[this.i + 1] ?? '';
      if (c === ' ' || c === '\t') {
        this.i++;
      } else if (c === '\\' && d === '\n') {
        this.i += 2;
      } else if (c === '\n') {
        this.finish('\n');
        this.i++;
        this.readHeredocBodies();
      } else if (c === '#') {
        const eol = s.indexOf('\n', this.i);
        this.i = eol === -1 ? n : eol;
      } else if (c === ';') {
        this.finish(';');
        this.i += d === ';' || d === '&' ? 2 : 1;
      } else if (c === '&' && d === '&') {
        this.finish('&&');
        this.i += 2;
      } else if (c === '&' && d === '>') {
        this.readRedirect(null);
      } else if (c === '&') {
        this.finish('&');
        this.i++;
      } else if (c === '|') {
        if (d === '|') {
          this.finish('||');
          this.i += 2;
        } else {
          this.finish('|');
          this.i += d === '&' ? 2 : 1;
        }
      } else if (c === '(' || c === ')') {
        // Subshells and groups: their commands run like any others.
        this.finish(';');
        this.i++;
      } else if ((c === '<' || c === '>') && d === '(') {
        const start = this.i;
        const [body, end] = readParen(s, this.i + 2);
        this.i = end;
        const raw = s.slice(start, end);
        this.words.push({
          value: raw,
          raw,
          quoted: false,
          expands: true,
          subs: [{ kind: 'process', body }],
        });
      } else if (c === '<' || c === '>') {
        this.readRedirect(null);
      } else if (c >= '0' && c <= '9' && this.fdRedirectAhead()) {
        let j = this.i;
        while (j < n && s[j]! >= '0' && s[j]! <= '9') j++;
        const fd = s.slice(this.i, j);
        this.i = j;
        this.readRedirect(fd);
      } else {
        const [word, end] = readWord(s, this.i);
        this.i = end > this.i ? end : this.i + 1;
        this.words.push(word);
      }
    }
    this.finish(null);
    return this.out;
  }

  private fdRedirectAhead(): boolean {
    let j = this.i;
    const s = this.s;
    while (j < s.length && s[j]! >= '0' && s[j]! <= '9') j++;
    return (s[j] === '<' || s[j] === '>') && s[j + 1] !== '(';
  }

  private finish(next: string | null): void {
    if (this.words.length > 0 || this.redirects.length > 0) {
      this.out.push({
        words: this.words,
        redirects: this.redirects,
        pipeline: this.pipeline,
        stage: this.stage,
        next,
      });
      this.words = [];
      this.redirects = [];
      if (next === '|') {
        this.stage++;
        return;
      }
    } else if (next === '|') {
      return;
    }
    this.pipeline++;
    this.stage = 0;
  }

  private readRedirect(fd: string | null): void {
    const s = this.s;
    const op = REDIRECT_OPS.find((o) => s.startsWith(o, this.i)) ?? s[this.i] ?? '>';
    this.i += op.length;
    while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
    let target: ShellWord | null = null;
    const c = s[this.i];
    if (this.i < s.length && c !== undefined && !WORD_END.has(c)) {
      const [word, end] = readWord(s, this.i);
      this.i = end > this.i ? end : this.i + 1;
      target = word;
    }
    const redirect: ShellRedirect = { op, fd, target, heredoc: null };
    this.redirects.push(redirect);
    if ((op === '<<' || op === '<<-') && target) {
      this.heredocs.push({ redirect, delimiter: target.value, stripTabs: op === '<<-' });
    }
  }

  /** Here-document bodies start on the line after their operator. */
  private readHeredocBodies(): void {
    const s = this.s;
    for (const pending of this.heredocs) {
      const lines: string[] = [];
      for (;;) {
        if (this.i >= s.length) break;
        const eol = s.indexOf('\n', this.i);
        const line = s.slice(this.i, eol === -1 ? s.length : eol);
        this.i = eol === -1 ? s.length : eol + 1;
        const check = pending.stripTabs ? line.replace(/^\t+/, '') : line;
        if (check === pending.delimiter) break;
        lines.push(line);
      }
      pending.redirect.heredoc = lines.join('\n');
    }
    this.heredocs = [];
  }
}

/** Reads one word starting at `start`; returns it and the index after it. */
export function readWord(s: string, start: number): [ShellWord, number] {
  let i = start;
  let value = '';
  let quoted = false;
  let expands = false;
  const subs: ShellSub[] = [];
  const n = s.length;
  while (i < n) {
    const c = s[i]!;
    if (WORD_END.has(c)) break;
    if (c === '\\') {
      if (s[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if (i + 1 < n) value += s[i + 1];
      quoted = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      const end = close === -1 ? n : close;
      value += s.slice(i + 1, end);
      quoted = true;
      i = close === -1 ? n : close + 1;
      continue;
    }
    if (c === '"') {
      quoted = true;
      i++;
      while (i < n && s[i] !== '"') {
        const q = s[i]!;
        if (q === '\\' && i + 1 < n && '$`"\\\n'.includes(s[i + 1]!)) {
          if (s[i + 1] !== '\n') value += s[i + 1];
          i += 2;
        } else if (q === '$' || q === '`') {
          const [text, end, sub, expanding] = readDollarOrBacktick(s, i);
          value += text;
          if (sub) subs.push(...sub);
          if (expanding) expands = true;
          i = end;
        } else {
          value += q;
          i++;
        }
      }
      i++;
      continue;
    }
    if (c === '$' && s[i + 1] === "'") {
      // ANSI-C quoting: $'\x72m' is "rm".
      const [text, end] = readAnsiC(s, i + 2);
      value += text;
      quoted = true;
      i = end;
      continue;
    }
    if (c === '$' || c === '`') {
      const [text, end, sub, expanding] = readDollarOrBacktick(s, i);
      value += text;
      if (sub) subs.push(...sub);
      if (expanding) expands = true;
      i = end;
      continue;
    }
    value += c;
    i++;
  }
  return [{ value, raw: s.slice(start, i), quoted, expands, subs }, i];
}

/** `$(…)`, `$((…))`, `${…}`, `$name`, `` `…` `` starting at i (s[i] is `$` or a backtick). */
function readDollarOrBacktick(s: string, i: number): [string, number, ShellSub[] | null, boolean] {
  const c = s[i];
  const d = s[i + 1];
  if (c === '`') {
    let j = i + 1;
    let body = '';
    while (j < s.length && s[j] !== '`') {
      if (s[j] === '\\' && j + 1 < s.length) {
        body += s[j + 1];
        j += 2;
      } else {
        body += s[j];
        j++;
      }
    }
    const end = Math.min(j + 1, s.length);
    return [s.slice(i, end), end, [{ kind: 'command', body }], true];
  }
  if (d === '(') {
    if (s[i + 2] === '(') {
      // Arithmetic: no commands of its own worth following.
      const [, end] = readParen(s, i + 2);
      return [s.slice(i, end), end, null, true];
    }
    const [body, end] = readParen(s, i + 2);
    return [s.slice(i, end), end, [{ kind: 'command', body }], true];
  }
  if (d === '{') {
    let depth = 1;
    let j = i + 2;
    while (j < s.length && depth > 0) {
      if (s[j] === '{') depth++;
      else if (s[j] === '}') depth--;
      j++;
    }
    const text = s.slice(i, j);
    // ${x:-$(cmd)} still runs cmd.
    const subs: ShellSub[] = [];
    // Searching on after the whole `$(…)` keeps this linear; substitutions inside it are found
    // when its body is analysed.
    for (let at = text.indexOf('$(', 2); at !== -1; ) {
      const [body, end] = readParen(text, at + 2);
      subs.push({ kind: 'command', body });
      at = text.indexOf('$(', end);
    }
    return [text, j, subs, true];
  }
  if (d !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(d)) {
    let j = i + 1;
    if (/[A-Za-z_]/.test(d)) while (j < s.length && /[A-Za-z0-9_]/.test(s[j]!)) j++;
    else j++;
    return [s.slice(i, j), j, null, true];
  }
  return ['$', i + 1, null, false];
}

/** Body of a parenthesised group whose `(` ends before `start`; returns [body, index after `)`]. */
export function readParen(s: string, start: number): [string, number] {
  let depth = 1;
  let j = start;
  const n = s.length;
  while (j < n) {
    const c = s[j]!;
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === "'") {
      const close = s.indexOf("'", j + 1);
      j = close === -1 ? n : close + 1;
      continue;
    }
    if (c === '"') {
      j++;
      while (j < n && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      j++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return [s.slice(start, j), j + 1];
    }
    j++;
  }
  return [s.slice(start, Math.min(j, n)), n];
}

const ANSI_C: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function readAnsiC(s: string, start: number): [string, number] {
  let out = '';
  let j = start;
  while (j < s.length && s[j] !== "'") {
    if (s[j] !== '\\' || j + 1 >= s.length) {
      out += s[j];
      j++;
      continue;
    }
    const e = s[j + 1]!;
    const hex =
      e === 'x'
        ? /^[0-9a-fA-F]{1,2}/
        : e === 'u'
          ? /^[0-9a-fA-F]{1,4}/
          : e === 'U'
            ? /^[0-9a-fA-F]{1,8}/
            : null;
    if (hex) {
      const m = hex.exec(s.slice(j + 2, j + 10));
      const cp = m ? parseInt(m[0], 16) : NaN;
      out += Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : e;
      j += 2 + (m ? m[0].length : 0);
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(s.slice(j + 1, j + 4));
      out += String.fromCharCode(parseInt(m?.[0] ?? '0', 8) & 0xff);
      j += 1 + (m ? m[0].length : 1);
    } else {
      out += ANSI_C[e] ?? `\\${e}`;
      j += 2;
    }
  }
  return [out, Math.min(j + 1, s.length)];
}
