import { describe, expect, it } from 'vitest';
import { emptyPreview, type CommandPreview } from '../../../shared/preview';
import {
  collapsedLabel,
  exitWords,
  formatDuration,
  partialNote,
  partialSummary,
  previewHeadline,
  shownPath,
} from './preview-words';

const ran = (over: Partial<CommandPreview>): CommandPreview => ({
  ...emptyPreview('done', null, 10_000),
  exitCode: 0,
  durationMs: 1_234,
  ...over,
});

describe('a preview in words', () => {
  it('says each state as it is, never more than the run showed', () => {
    const says = (p: CommandPreview) => previewHeadline(p).text;
    expect(says(emptyPreview('running', null, 10_000))).toBe('Previewing… (at most 10 s)');
    expect(says(ran({}))).toBe('No changes');
    expect(
      says(
        ran({
          counts: { created: 2, modified: 1, deleted: 1, renamed: 0, outside: 0, protected: 0 },
          hosts: ['api.example.com'],
        }),
      ),
    ).toBe('Changes 3 files, deletes 1, tried api.example.com');
    expect(says({ ...emptyPreview('incomplete', 'network', 10_000) })).toBe(
      'Incomplete: needed the network',
    );
    expect(says(emptyPreview('incomplete', 'time', 10_000))).toBe(
      'Incomplete: still running after 10 s',
    );
    expect(says(emptyPreview('incomplete', 'limits', 10_000))).toBe('Incomplete: hit a bound');
    expect(says(emptyPreview('not_previewed', 'title_only', 10_000))).toBe(
      "Not previewed: the command is only the agent's title",
    );
    expect(says(emptyPreview('not_previewed', 'off', 10_000))).toBe(
      'Not previewed: off for this agent',
    );
    expect(says(emptyPreview('unavailable', 'system', 10_000))).toBe(
      'Preview not available on this system',
    );
  });

  it('marks a preview cut short as caution, one not run as quiet', () => {
    expect(previewHeadline(emptyPreview('incomplete', 'time', 1)).tone).toBe('caution');
    expect(previewHeadline(emptyPreview('not_previewed', 'off', 1)).tone).toBe('quiet');
    expect(previewHeadline(emptyPreview('unavailable', 'system', 1)).tone).toBe('quiet');
  });

  it('says that a list cut short by a bound may not be all, and what it found until then', () => {
    expect(partialNote(ran({}))).toBeNull();
    expect(partialNote(emptyPreview('incomplete', 'time', 1))).toBe(
      'It changed nothing before it was stopped; it may change files when it runs for real.',
    );
    const network = ran({
      state: 'incomplete',
      reason: 'network',
      counts: { created: 1, modified: 0, deleted: 1, renamed: 0, outside: 0, protected: 0 },
      hosts: ['api.example.com'],
    });
    expect(partialNote(network)).toBe(
      'What it changed without the network; it may do more when it runs for real.',
    );
    expect(partialSummary(network)).toBe('Changes 1 file, deletes 1, tried api.example.com');
    expect(partialSummary(emptyPreview('incomplete', 'time', 1))).toBeNull();
  });

  it('offers the first of a long list, or all of it', () => {
    expect(collapsedLabel(3412, 200)).toBe('3,412 changes — show the first 200');
    expect(collapsedLabel(45, 45)).toBe('45 changes — show all');
  });

  it('shows a path inside the session folder relative to it, any other whole', () => {
    expect(shownPath('/p/build/a.o', '/p')).toBe('build/a.o');
    expect(shownPath('/p/build/a.o', '/p/')).toBe('build/a.o');
    expect(shownPath('/p2/a', '/p')).toBe('/p2/a');
    expect(shownPath('/home/u/.bashrc', '/p')).toBe('/home/u/.bashrc');
    expect(shownPath('/p', '/p')).toBe('/p');
  });

  it('tells how it ended and how long it took', () => {
    expect(exitWords(ran({ exitCode: 2 }))).toBe('exit code 2');
    expect(exitWords(emptyPreview('incomplete', 'time', 1))).toBe('stopped before it exited');
    expect(exitWords(emptyPreview('running', null, 1))).toBeNull();
    expect(formatDuration(80)).toBe('80 ms');
    expect(formatDuration(1_234)).toBe('1.2 s');
    expect(formatDuration(2_000)).toBe('2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(75_000)).toBe('1 min 15 s');
  });
});
