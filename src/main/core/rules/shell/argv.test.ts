import { describe, expect, it } from 'vitest';
import { scriptOfShellArgv } from './argv';

describe('scriptOfShellArgv', () => {
  it('takes the script of a shell given only -c and its login or interactive flags', () => {
    expect(scriptOfShellArgv(['bash', '-lc', 'npm test'])).toBe('npm test');
    expect(scriptOfShellArgv(['/bin/bash', '-c', 'ls -la'])).toBe('ls -la');
    expect(scriptOfShellArgv(['sh', '-c', 'a; b'])).toBe('a; b');
    expect(scriptOfShellArgv(['zsh', '-ic', 'x'])).toBe('x');
    expect(scriptOfShellArgv(['dash', '-cl', 'x'])).toBe('x');
  });

  it('takes a shell named by its path only in a system folder', () => {
    for (const dir of ['/bin', '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin']) {
      for (const shell of ['bash', 'sh', 'zsh', 'dash']) {
        expect(scriptOfShellArgv([`${dir}/${shell}`, '-lc', 'npm test'])).toBe('npm test');
      }
    }
    // A file named bash elsewhere is whatever was put there: the argv stays opaque.
    expect(scriptOfShellArgv(['/tmp/evil/bash', '-lc', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['./bash', '-lc', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['bin/bash', '-lc', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['/bin/../tmp/bash', '-lc', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['/usr/bin//bash', '-lc', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['/home/u/.local/bin/bash', '-c', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['C:\\tmp\\bash', '-c', 'npm test'])).toBeNull();
    expect(scriptOfShellArgv(['/bin/fish', '-c', 'npm test'])).toBeNull();
  });

  it('keeps anything else whole', () => {
    expect(scriptOfShellArgv(['bash', '-lc'])).toBeNull();
    // $0 and positional parameters after the script change what it does.
    expect(scriptOfShellArgv(['bash', '-c', 'echo $1', 'x', 'y'])).toBeNull();
    expect(scriptOfShellArgv(['bash', '-l', 'script.sh'])).toBeNull();
    expect(scriptOfShellArgv(['bash', '-xc', 'ls'])).toBeNull();
    expect(scriptOfShellArgv(['bash', '-ec', 'ls'])).toBeNull();
    expect(scriptOfShellArgv(['fish', '-c', 'ls'])).toBeNull();
    expect(scriptOfShellArgv(['python3', '-c', 'print(1)'])).toBeNull();
    expect(scriptOfShellArgv(['npm', 'test', 'x'])).toBeNull();
  });
});
