import { describe, expect, it } from 'vitest';
import type { QuestionForm } from '../../../shared/question';
import { answerOf, initialDraft } from './question-form';

const base = { title: null, description: null, required: false };
const form: QuestionForm = {
  title: null,
  description: null,
  fields: [
    {
      ...base,
      name: 'name',
      type: 'string',
      required: true,
      minLength: null,
      maxLength: null,
      format: null,
      default: 'v1',
      choices: null,
    },
    { ...base, name: 'n', type: 'integer', minimum: 1, maximum: 5, default: 2 },
    { ...base, name: 'ok', type: 'boolean', default: null },
    {
      ...base,
      name: 'tags',
      type: 'array',
      choices: [{ value: 'a', title: 'A' }],
      minItems: null,
      maxItems: null,
      default: null,
    },
  ],
};

describe('a question form as it is filled in', () => {
  it('starts from the defaults and sends them as the protocol types them', () => {
    expect(answerOf(form, initialDraft(form))).toEqual({
      content: { name: 'v1', n: 2, ok: false },
      problems: {},
    });
  });

  it('leaves an emptied optional field out, and names what is wrong at its field', () => {
    const draft = { ...initialDraft(form), name: ' ', n: 'seven' };
    expect(answerOf(form, draft).problems).toEqual({ name: 'required', n: 'must be a number' });
    expect(answerOf(form, { ...initialDraft(form), n: '' }).content).toEqual({
      name: 'v1',
      ok: false,
    });
    expect(answerOf(form, { ...initialDraft(form), n: '2.5' }).problems).toEqual({
      n: 'must be a whole number',
    });
  });
});
