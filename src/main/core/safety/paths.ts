// Where a path points, computed purely: `~` and $HOME expanded, `..` normalized, relative paths
// taken from a base directory. Symlinks are NOT resolved (no file system access here), so a link
// inside the session folder that points outside is not detected by this layer.
import { isAbsolute, resolve } from 'node:path';
import { expandHome } from '../fs/containment';

/**
 * Absolute, normalized form of `p`, or null when it cannot be known without running a shell
 * (`$OTHER/x`, `$(pwd)/x`, `~user/x`) or when the base itself is not absolute.
 */
export function resolvePath(p: string, base: string | null, homeDir: string): string | null {
  if (p === '') return null;
  const expanded = expandHome(p, homeDir);
  if (expanded.includes('$') || expanded.includes('`') || expanded.startsWith('~')) return null;
  if (isAbsolute(expanded)) return resolve(expanded);
  if (base === null || !isAbsolute(base)) return null;
  return resolve(base, expanded);
}

/** Device files that name no file on disk (`2>/dev/null`). */
export function isDevicePath(p: string): boolean {
  return /^\/dev\/(?:null|zero|stdin|stdout|stderr|tty|fd\/\d+|u?random)$/.test(p);
}
