import { describe, expect, it } from 'vitest';
import { previewConditionWords } from './rule-words';

describe('a rule that requires a preview, in words', () => {
  it('names the folders its preview may change, each as a folder', () => {
    expect(previewConditionWords({ whenPreviewChangesOnly: ['build', 'dist/'] })).toBe(
      'only when its preview changes nothing outside build/, dist/',
    );
  });

  it('says "nothing" for an empty list, and nothing for a rule without the condition', () => {
    expect(previewConditionWords({ whenPreviewChangesOnly: [] })).toBe(
      'only when its preview changes nothing',
    );
    expect(previewConditionWords({})).toBeNull();
  });
});
