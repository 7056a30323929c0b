import { describe, expect, it } from 'vitest';
import { fileViolationsIn } from './violations';

describe('fileViolationsIn', () => {
  it('reads Node errors and libc messages', () => {
    const stderr = [
      "Error: EROFS: read-only file system, open '/home/ada/.bashrc'",
      "Error: EACCES: permission denied, mkdir '/opt/tool'",
      'touch: cannot touch /etc/hosts: Read-only file system',
      'sh: 1: cannot create /usr/local/x: Permission denied',
      'all good here',
    ].join('\n');
    expect(fileViolationsIn(stderr)).toEqual([
      { kind: 'file', path: '/home/ada/.bashrc', error: 'EROFS' },
      { kind: 'file', path: '/opt/tool', error: 'EACCES' },
      { kind: 'file', path: '/etc/hosts', error: 'EROFS' },
      { kind: 'file', path: '/usr/local/x', error: 'EACCES' },
    ]);
  });

  it('reads a mount point that could not be moved or removed, quoted or not', () => {
    const stderr = [
      "Error: EBUSY: resource busy or locked, rename '/p/.git' -> '/p/.git2'",
      "rm: cannot remove '/p/.git/config': Device or resource busy",
      "touch: cannot touch '/p/.git/hooks/pre-commit': Read-only file system",
    ].join('\n');
    expect(fileViolationsIn(stderr)).toEqual([
      { kind: 'file', path: '/p/.git', error: 'EBUSY' },
      { kind: 'file', path: '/p/.git/config', error: 'EBUSY' },
      { kind: 'file', path: '/p/.git/hooks/pre-commit', error: 'EROFS' },
    ]);
  });

  it('finds nothing in ordinary output', () => {
    expect(fileViolationsIn('Loaded 3 files\nPermission denied by the user')).toEqual([]);
  });
});
