import { describe, expect, it } from 'vitest';
import { ConfigOptions, CONFIG_LIMITS } from '../../../shared/session-config';
import { withRefusals } from './agent-modes';
import { readConfigOptions, shownOptions } from './config-options';

const select = (id: string, values: string[], extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  type: 'select',
  currentValue: values[0],
  options: values.map((value) => ({ value, name: value })),
  ...extra,
});

describe('the session options an agent advertises', () => {
  it('keeps selects and booleans, names them, ignores what is malformed', () => {
    const read = readConfigOptions([
      select('model', ['fast', 'smart']),
      { id: 'thinking', name: 'Think', type: 'boolean', currentValue: false },
      { id: 'broken', type: 'select' },
      'nonsense',
    ]);
    expect(read.map((o) => [o.id, o.type, o.currentValue, o.guarded])).toEqual([
      ['model', 'select', 'fast', false],
      ['thinking', 'boolean', false, false],
    ]);
    expect(readConfigOptions({ not: 'a list' })).toEqual([]);
  });

  it('bounds a hostile list: 10,000 options, huge labels, ids too long to send back', () => {
    const huge = 'x'.repeat(1_000_000);
    const raw = [
      ...Array.from({ length: 10_000 }, (_, i) => ({
        ...select(`opt${i}`, ['a', 'b']),
        name: huge,
        description: huge,
      })),
      select(huge, ['a']),
      select('mode', ['default', 'bypassPermissions'], { category: 'mode' }),
    ];
    const shown = shownOptions(readConfigOptions(raw));
    expect(shown).toHaveLength(CONFIG_LIMITS.options);
    expect(ConfigOptions.safeParse(shown).success).toBe(true);
    expect(shown.every((o) => o.name.length <= CONFIG_LIMITS.name)).toBe(true);
    expect(shown.some((o) => o.id === huge)).toBe(false);
    // The option choosing the agent's mode is kept wherever it stood.
    expect(shown.find((o) => o.id === 'mode')).toMatchObject({ guarded: true });
  });

  it('marks options about approvals as guarded, and refuses values that stop the agent asking', () => {
    const read = readConfigOptions([
      select('approval_policy', ['on-request', 'never-ask'], { name: 'Approval policy' }),
      { ...select('preset', ['careful', 'yolo']), category: 'mode' },
      select('model', ['auto', 'bypass-everything'], {
        options: [
          { value: 'auto', name: 'Auto' },
          { value: 'fast', name: 'Fast', description: 'Runs commands without asking' },
        ],
      }),
      { id: 'auto_approve', name: 'Auto-approve edits', type: 'boolean', currentValue: false },
    ]);
    expect(read.map((o) => o.guarded)).toEqual([true, true, false, true]);
    const offered = withRefusals(read, 'claude');
    const refusedValues = offered.flatMap((o) =>
      o.type === 'select' ? o.values.filter((v) => v.refused).map((v) => `${o.id}:${v.value}`) : [],
    );
    // A model named "auto" is no mode: the table of Claude's modes applies to guarded options only.
    expect(refusedValues).toEqual(['preset:yolo', 'model:fast']);
    expect(offered[3]).toMatchObject({ type: 'boolean', refusedOn: true });
  });
});
