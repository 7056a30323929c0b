/** A write or read the sandbox refused, as the agent reported it on stderr. */
export interface FileViolation {
  kind: 'file';
  path: string;
  error: 'EROFS' | 'EACCES' | 'EPERM';
}

// Node (`EROFS: read-only file system, open '/x'`) and C tools (`/x: Read-only file system`).
const NODE_STYLE = /\b(EROFS|EACCES|EPERM): [^,\n]*, \w+ '([^'\n]{1,4096})'/g;
const LIBC_STYLE =
  /(?:^|[\s'"`])(\/[^\s:'"`]{0,4096}): (Read-only file system|Permission denied|Operation not permitted)/gm;
const LIBC_CODES = {
  'Read-only file system': 'EROFS',
  'Permission denied': 'EACCES',
  'Operation not permitted': 'EPERM',
} as const;

/** The refused paths named in a piece of the agent's stderr (at most 64 KiB of it is read). */
export function fileViolationsIn(stderr: string): FileViolation[] {
  const text = stderr.slice(0, 64 * 1024);
  const found = new Map<string, FileViolation>();
  for (const match of text.matchAll(NODE_STYLE)) {
    const [, error, path] = match;
    if (error && path)
      found.set(`${error}:${path}`, { kind: 'file', path, error: error as FileViolation['error'] });
  }
  for (const match of text.matchAll(LIBC_STYLE)) {
    const [, path, message] = match;
    const error = LIBC_CODES[message as keyof typeof LIBC_CODES];
    if (path && error) found.set(`${error}:${path}`, { kind: 'file', path, error });
  }
  return [...found.values()];
}
