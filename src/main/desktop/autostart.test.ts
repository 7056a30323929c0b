import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autostartEntry, autostartFile, HIDDEN_ARG, setLinuxAutostart } from './autostart';

describe('Linux start at login (XDG autostart)', () => {
  it('writes an entry that starts Gatehouse hidden in the tray, and removes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-autostart-'));
    try {
      const file = autostartFile({ XDG_CONFIG_HOME: dir }, '/home/x');
      expect(file).toBe(join(dir, 'autostart', 'gatehouse.desktop'));
      expect(autostartFile({}, '/home/x')).toBe('/home/x/.config/autostart/gatehouse.desktop');
      expect(setLinuxAutostart(true, '/opt/Gatehouse/gatehouse', file)).toBe(true);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('[Desktop Entry]');
      expect(text).toContain(`Exec=/opt/Gatehouse/gatehouse ${HIDDEN_ARG}`);
      expect(setLinuxAutostart(false, '/opt/Gatehouse/gatehouse', file)).toBe(false);
      expect(existsSync(file)).toBe(false);
      expect(setLinuxAutostart(false, '/opt/Gatehouse/gatehouse', file)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('quotes an executable path with spaces or specials', () => {
    expect(autostartEntry('/home/me/Apps/Gate house 100%.AppImage')).toContain(
      'Exec="/home/me/Apps/Gate house 100%%.AppImage" --hidden',
    );
    expect(autostartEntry('/x/$HOME`id`')).toContain('Exec="/x/\\$HOME\\`id\\`" --hidden');
  });
});
