// What a person types into a question's form, and the answer it makes: the same check the core
// runs (shared/question.ts), so a wrong value is shown at its field before anything is sent.
import {
  answerProblems,
  type QuestionAnswer,
  type QuestionField,
  type QuestionForm,
} from '../../../shared/question';

/** A field as it is edited: text and numbers as typed, a yes/no, or the choices ticked. */
export type DraftValue = string | boolean | string[];
export type Draft = Record<string, DraftValue>;

export function initialDraft(form: QuestionForm): Draft {
  const draft: Draft = {};
  for (const field of form.fields) draft[field.name] = initialValue(field);
  return draft;
}

function initialValue(field: QuestionField): DraftValue {
  switch (field.type) {
    case 'boolean':
      return field.default ?? false;
    case 'array':
      return field.default ?? [];
    case 'number':
    case 'integer':
      return field.default === null ? '' : String(field.default);
    case 'string':
      return field.default ?? '';
  }
}

/** The answer the draft makes (an empty optional field is left out) and what is wrong with it. */
export function answerOf(
  form: QuestionForm,
  draft: Draft,
): { content: QuestionAnswer; problems: Record<string, string> } {
  const content: QuestionAnswer = {};
  for (const field of form.fields) {
    const value = draft[field.name];
    if (value === undefined) continue;
    if (field.type === 'boolean') content[field.name] = value === true;
    else if (field.type === 'array') {
      if (Array.isArray(value) && (value.length > 0 || field.required)) content[field.name] = value;
    } else if (typeof value === 'string' && value.trim() !== '') {
      content[field.name] =
        field.type === 'string' ? value : Number(value.trim().replace(/^\+/, ''));
    }
  }
  return { content, problems: answerProblems(form, content) };
}
