// A grant in words, the same wherever one is listed or made: "allow `npm test` in /home/me/proj
// for 30 min". No Node, no DOM: the renderer and the `gatehouse` command both read it.
import type { Grant, GrantCommand } from './rules';
import type { ToolKind } from './domain';

/** "for 30 min", "for 1 hour", "for 8 hours", "for 1 h 30 min". */
export function forHowLong(minutes: number): string {
  const m = Math.max(1, Math.round(minutes));
  if (m < 60) return `for ${m} min`;
  const hours = Math.floor(m / 60);
  const rest = m % 60;
  if (rest === 0) return `for ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  return `for ${hours} h ${rest} min`;
}

/** A token as the shell would need it written. */
const shellWord = (token: string) =>
  /^[A-Za-z0-9_@%+=:,./-]+$/.test(token) ? token : `'${token.replaceAll("'", "'\\''")}'`;

/** One remembered command as the shell would read it; a prefix grant's words end in "…". */
export function grantCommandText(c: GrantCommand): string {
  const env = Object.entries(c.env).map(([k, v]) => `${k}=${shellWord(v)}`);
  const argv = c.argv.map((token, i) => (c.dynamic.includes(i) ? token : shellWord(token)));
  const more = c.match === 'prefix' ? ['…'] : [];
  const writes = c.writes.map((w) => `> ${w}`);
  return [...env, ...argv, ...more, ...writes].join(' ');
}

const KIND_VERB: Partial<Record<ToolKind, string>> = {
  read: 'reading',
  edit: 'editing',
  delete: 'deleting',
  move: 'moving',
  search: 'searching',
  fetch: 'fetching',
};

/** `/home/me/proj` as `~/proj` when the home folder is known. */
function shortPath(path: string, home: string | undefined): string {
  if (!home) return path;
  const base = home.replace(/\/+$/, '');
  if (path === base) return '~';
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}

export interface GrantWordsOptions {
  /** The agent's name, for a grant that holds wherever it works. */
  agentName?: string;
  /** The home folder, written `~`. */
  home?: string;
}

/** A piece of a grant's sentence: words, or a command or path to set as code. */
export interface GrantPart {
  text: string;
  code: boolean;
}

/** What a grant allows, where and for how long, in pieces (for a view that sets code apart). */
export function grantParts(grant: Grant, options: GrantWordsOptions = {}): GrantPart[] {
  const words = (text: string): GrantPart => ({ text, code: false });
  const code = (text: string): GrantPart => ({ text, code: true });
  const list = (items: string[]) =>
    items.flatMap((item, i) => (i === 0 ? [code(item)] : [words(', '), code(item)]));
  const what = grant.commands
    ? list(grant.commands.map(grantCommandText))
    : [
        words(`${KIND_VERB[grant.toolKind] ?? grant.toolKind} `),
        ...list((grant.paths ?? []).map((p) => shortPath(p, options.home))),
      ];
  const where =
    grant.scope === 'project' && grant.projectRoot
      ? ` in ${shortPath(grant.projectRoot, options.home)}`
      : grant.scope === 'agent'
        ? ` for ${options.agentName ?? grant.agentId} everywhere`
        : grant.scope === 'session'
          ? ' in this session'
          : ' once';
  const until =
    grant.expiresAt !== undefined
      ? ` ${forHowLong((grant.expiresAt - grant.createdAt) / 60_000)}`
      : grant.scope === 'project' || grant.scope === 'agent'
        ? ', until revoked'
        : '';
  return [words('allow '), ...what, words(`${where}${until}`)];
}

/** What a grant allows, where and for how long, as one sentence: code between backquotes. */
export function grantWords(grant: Grant, options: GrantWordsOptions = {}): string {
  return grantParts(grant, options)
    .map((part) => (part.code ? `\`${part.text}\`` : part.text))
    .join('');
}
