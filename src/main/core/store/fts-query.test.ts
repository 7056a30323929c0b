import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreEngine } from '.';
import { textQuery, tokenize, wordMatches } from './fts-query';
import { decide, tempStore } from '../../../../test/support/store';

describe('search terms', () => {
  it('tokenizes like unicode61: letters and digits, folded case and Latin diacritics', () => {
    expect(tokenize('Edit src/Main/Café.ts -- rm -rf ~/x_y')).toEqual([
      'edit',
      'src',
      'main',
      'cafe',
      'ts',
      'rm',
      'rf',
      'x',
      'y',
    ]);
    expect(tokenize('部署 ÜBER naïve 🚀')).toEqual(['部署', 'uber', 'naive']);
  });

  it('uses the 3- and 5-letter prefix indexes and checks longer prefixes itself', () => {
    expect(textQuery('dep')).toEqual({ match: '"dep"*', checks: [] });
    expect(textQuery('deplo')).toEqual({ match: '"deplo"*', checks: [] });
    expect(textQuery('depl')).toEqual({ match: '"dep"*', checks: [['depl']] });
    expect(textQuery('deployment')).toEqual({ match: '"deplo"*', checks: [['deployment']] });
    expect(textQuery('rm')).toEqual({ match: '"rm"', checks: [] });
    expect(textQuery('core.ts')).toEqual({ match: '"core"', checks: [['core', 'ts']] });
    expect(textQuery('src/main')).toEqual({ match: '"src mai"*', checks: [['src', 'main']] });
    expect(textQuery('"NEAR(" OR * ')).toEqual({ match: '"nea"* "or"', checks: [['near']] });
    expect(textQuery('" * ^ | 🚀')).toBeNull();
  });

  it('checks a phrase within one column, the last token as a prefix', () => {
    expect(wordMatches(['Edit file', '', 'src/core.tsx'], [['core', 'ts']])).toBe(true);
    expect(wordMatches(['Edit core', '', 'ts/x'], [['core', 'ts']])).toBe(false);
    expect(wordMatches(['dependencies', '', ''], [['depth']])).toBe(false);
    expect(wordMatches(['Deployment', 'x', ''], [['deploy'], ['x']])).toBe(true);
  });
});

describe('search semantics on the store', () => {
  let store: StoreEngine;
  let cleanup: () => Promise<void>;
  const titles = [
    'Run rm -rf build',
    'Run rmdir old',
    'Edit Café menu',
    'Deploy dependencies',
    'Check depth limit',
    'Edit src/core.tsx',
    'Edit core notes in ts folder',
  ];
  beforeAll(async () => {
    ({ store, cleanup } = tempStore());
    for (const title of titles) await decide(store, { title });
    await store.flush();
  });
  afterAll(async () => cleanup());
  const find = (q: string) =>
    store
      .history({ q })
      .items.map((i) => i.title)
      .sort();

  it('matches prefixes of long words exactly, not just their indexed prefix', () => {
    expect(find('depth')).toEqual(['Check depth limit']);
    expect(find('depe')).toEqual(['Deploy dependencies']);
    expect(find('dep')).toEqual(['Check depth limit', 'Deploy dependencies']);
  });

  it('matches one- and two-letter words as whole tokens', () => {
    expect(find('rm')).toEqual(['Run rm -rf build']);
    expect(find('rmd')).toEqual(['Run rmdir old']);
  });

  it('folds case and diacritics, and keeps phrases within a column', () => {
    expect(find('cafe')).toEqual(['Edit Café menu']);
    expect(find('CAFÉ MEN')).toEqual(['Edit Café menu']);
    expect(find('core.ts')).toEqual(['Edit src/core.tsx']);
    // Two words: "ts" alone is a whole token, so core.tsx does not match; in the phrase it is a prefix.
    expect(find('core ts')).toEqual(['Edit core notes in ts folder']);
    expect(find('core tsx')).toEqual(['Edit src/core.tsx']);
  });
});
