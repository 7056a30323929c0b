import { describe, expect, it } from 'vitest';
import { answerProblems, type QuestionForm } from './question';

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
      minLength: 2,
      maxLength: 5,
      format: null,
      default: null,
      choices: null,
    },
    {
      ...base,
      name: 'mail',
      type: 'string',
      minLength: null,
      maxLength: null,
      format: 'email',
      default: null,
      choices: null,
    },
    { ...base, name: 'n', type: 'integer', minimum: 1, maximum: 3, default: null },
    { ...base, name: 'x', type: 'number', minimum: null, maximum: 1.5, default: null },
    { ...base, name: 'ok', type: 'boolean', default: null },
    {
      ...base,
      name: 'pick',
      type: 'string',
      minLength: null,
      maxLength: null,
      format: null,
      default: null,
      choices: [{ value: 'a', title: 'A' }],
    },
    {
      ...base,
      name: 'tags',
      type: 'array',
      choices: [
        { value: 'p', title: 'P' },
        { value: 'q', title: 'Q' },
      ],
      minItems: 1,
      maxItems: 1,
      default: null,
    },
  ],
};

describe('an answer checked against its form', () => {
  it('accepts an answer that satisfies every field, and leaves optional ones out', () => {
    expect(answerProblems(form, { name: 'abc' })).toEqual({});
    expect(
      answerProblems(form, {
        name: 'ab',
        mail: 'a@b.c',
        n: 3,
        x: 1.5,
        ok: false,
        pick: 'a',
        tags: ['q'],
      }),
    ).toEqual({});
  });

  it('names each field that does not', () => {
    expect(
      answerProblems(form, {
        mail: 'nope',
        n: 2.5,
        x: 2,
        ok: 'yes',
        pick: 'b',
        tags: ['p', 'q'],
      }),
    ).toEqual({
      name: 'required',
      mail: 'not a valid email',
      n: 'must be a whole number',
      x: 'at most 1.5',
      ok: 'must be yes or no',
      pick: 'not one of the choices',
      tags: 'choose at most 1',
    });
    expect(answerProblems(form, { name: 'toolong' })).toEqual({ name: 'at most 5 characters' });
  });

  it('refuses a field the form does not name: the agent gets only what it asked', () => {
    expect(answerProblems(form, { name: 'abc', extra: 'x' })).toEqual({
      _: 'no field named extra',
    });
    expect(answerProblems(form, { name: 'abc', __proto__: 'x' } as never)).toEqual({});
    expect(answerProblems(form, JSON.parse('{"name":"abc","__proto__":"x"}'))).toEqual({
      _: 'no field named __proto__',
    });
  });
});
