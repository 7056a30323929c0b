import { describe, expect, it } from 'vitest';
import { databasePath, defaultHome, resolveHome } from '.';

describe('GATEHOUSE_HOME', () => {
  it('defaults to the OS app-data folder', () => {
    expect(
      defaultHome({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me'),
    ).toMatch(/AppData[\\/]Roaming[\\/]Gatehouse$/);
    expect(defaultHome({}, 'darwin', '/Users/me')).toBe(
      '/Users/me/Library/Application Support/Gatehouse',
    );
    expect(defaultHome({}, 'linux', '/home/me')).toBe('/home/me/.config/Gatehouse');
    expect(defaultHome({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/me')).toBe('/xdg/Gatehouse');
    expect(defaultHome({ XDG_CONFIG_HOME: '' }, 'freebsd', '/home/me')).toBe(
      '/home/me/.config/Gatehouse',
    );
  });

  it('GATEHOUSE_HOME wins when set and not blank', () => {
    expect(resolveHome({ GATEHOUSE_HOME: '/srv/gh' }, 'linux', '/home/me')).toBe('/srv/gh');
    expect(resolveHome({ GATEHOUSE_HOME: '  ' }, 'linux', '/home/me')).toBe(
      '/home/me/.config/Gatehouse',
    );
    expect(databasePath('/srv/gh')).toBe('/srv/gh/gatehouse.db');
  });
});
