import { describe, expect, it } from 'vitest';
import { controlSocketPath, SocketPathError } from './socket-path';

describe('controlSocketPath', () => {
  it('is gatehouse.sock in the home on Unix', () => {
    expect(controlSocketPath('/home/ada/.config/Gatehouse', 'linux')).toBe(
      '/home/ada/.config/Gatehouse/gatehouse.sock',
    );
  });

  it('refuses a home too deep for a socket address, saying what to do', () => {
    expect(() => controlSocketPath(`/${'x'.repeat(100)}`, 'darwin')).toThrow(SocketPathError);
    expect(() => controlSocketPath(`/${'x'.repeat(100)}`, 'darwin')).toThrow(/GATEHOUSE_HOME/);
  });

  it('is a named pipe derived from the home on Windows, the same for the same folder', () => {
    const pipe = controlSocketPath('C:\\Users\\Ada\\AppData\\Roaming\\Gatehouse', 'win32');
    expect(pipe).toMatch(/^\\\\\.\\pipe\\gatehouse-[0-9a-f]{32}$/);
    expect(controlSocketPath('c:\\users\\ada\\appdata\\roaming\\gatehouse\\', 'win32')).toBe(pipe);
    expect(controlSocketPath('C:\\Users\\Bob\\AppData\\Roaming\\Gatehouse', 'win32')).not.toBe(
      pipe,
    );
  });
});
