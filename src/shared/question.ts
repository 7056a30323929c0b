// An agent's question (ACP `elicitation/create`) as every surface sees it: a form built from the
// protocol's restricted schema, or a link the person opens themselves. The answer is checked
// against the same form here, by the page before it is sent and by the core when it arrives.
import { z } from 'zod';

/** Bounds of a question; an agent's request past them is refused, never cut. */
export const QUESTION_LIMITS = {
  message: 4_000,
  title: 200,
  description: 2_000,
  fields: 32,
  fieldName: 100,
  choices: 100,
  choice: 500,
  /** The longest string a person may answer, whatever the agent's maxLength says. */
  text: 10_000,
  url: 4_096,
  /** The request as the agent sent it, strings and keys together (UTF-8 bytes). */
  requestBytes: 64 * 1024,
  requestDepth: 8,
  requestValues: 4_000,
} as const;

const Text = (max: number) => z.string().max(max);
const Choice = z.object({
  value: Text(QUESTION_LIMITS.choice),
  title: Text(QUESTION_LIMITS.choice),
});

const FieldBase = {
  name: z.string().min(1).max(QUESTION_LIMITS.fieldName),
  title: Text(QUESTION_LIMITS.title).nullable(),
  description: Text(QUESTION_LIMITS.description).nullable(),
  required: z.boolean(),
};

/** One field of a form, as the protocol's subset allows it (no nesting, no patterns). */
export const QuestionField = z.discriminatedUnion('type', [
  z.object({
    ...FieldBase,
    type: z.literal('string'),
    minLength: z.number().int().min(0).nullable(),
    maxLength: z.number().int().min(0).nullable(),
    format: z.enum(['email', 'uri', 'date', 'date-time']).nullable(),
    default: Text(QUESTION_LIMITS.text).nullable(),
    /** Present: a single choice among these values. */
    choices: z.array(Choice).max(QUESTION_LIMITS.choices).nullable(),
  }),
  z.object({
    ...FieldBase,
    type: z.enum(['number', 'integer']),
    minimum: z.number().nullable(),
    maximum: z.number().nullable(),
    default: z.number().nullable(),
  }),
  z.object({ ...FieldBase, type: z.literal('boolean'), default: z.boolean().nullable() }),
  z.object({
    ...FieldBase,
    type: z.literal('array'),
    choices: z.array(Choice).min(1).max(QUESTION_LIMITS.choices),
    minItems: z.number().int().min(0).nullable(),
    maxItems: z.number().int().min(0).nullable(),
    default: z.array(Text(QUESTION_LIMITS.choice)).max(QUESTION_LIMITS.choices).nullable(),
  }),
]);
export type QuestionField = z.infer<typeof QuestionField>;

export const QuestionForm = z.object({
  title: Text(QUESTION_LIMITS.title).nullable(),
  description: Text(QUESTION_LIMITS.description).nullable(),
  fields: z.array(QuestionField).max(QUESTION_LIMITS.fields),
});
export type QuestionForm = z.infer<typeof QuestionForm>;

/** A waiting question; `message` is the agent's own words, shown as such. */
export const PendingQuestion = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('form'),
    message: Text(QUESTION_LIMITS.message),
    toolCallId: z.string().max(200).nullable(),
    form: QuestionForm,
  }),
  z.object({
    mode: z.literal('url'),
    message: Text(QUESTION_LIMITS.message),
    toolCallId: z.string().max(200).nullable(),
    elicitationId: z.string().min(1).max(200),
    url: Text(QUESTION_LIMITS.url),
    /** The host the link leads to, as the URL parser reads it (punycode for other scripts). */
    host: z.string().min(1).max(300),
  }),
]);
export type PendingQuestion = z.infer<typeof PendingQuestion>;

/** One answered value: the protocol's own wire forms. */
export const AnswerValue = z.union([
  Text(QUESTION_LIMITS.text),
  z.number(),
  z.boolean(),
  z.array(Text(QUESTION_LIMITS.choice)).max(QUESTION_LIMITS.choices),
]);
export type AnswerValue = z.infer<typeof AnswerValue>;
export const QuestionAnswer = z
  .record(z.string().max(QUESTION_LIMITS.fieldName), AnswerValue)
  .refine((a) => Object.keys(a).length <= QUESTION_LIMITS.fields, 'too many fields');
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;

export const AnswerQuestionInput = z.union([
  z
    .object({
      requestId: z.uuid(),
      action: z.literal('accept'),
      content: QuestionAnswer.optional(),
    })
    .strict(),
  z.object({ requestId: z.uuid(), action: z.literal('decline') }).strict(),
]);
export type AnswerQuestionInput = z.infer<typeof AnswerQuestionInput>;

// The formats the protocol names, checked as plainly as a person's browser would.
const FORMAT_CHECKS: Record<string, (value: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  uri: (v) => URL.canParse(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
};

function fieldProblem(field: QuestionField, value: AnswerValue): string | null {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      const length = [...value].length;
      if (field.minLength !== null && length < field.minLength)
        return `at least ${field.minLength} characters`;
      if (field.maxLength !== null && length > field.maxLength)
        return `at most ${field.maxLength} characters`;
      if (field.choices && !field.choices.some((c) => c.value === value))
        return 'not one of the choices';
      if (field.format && value !== '' && !FORMAT_CHECKS[field.format]!(value))
        return `not a valid ${field.format}`;
      return null;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== null && value < field.minimum) return `at least ${field.minimum}`;
      if (field.maximum !== null && value > field.maximum) return `at most ${field.maximum}`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be yes or no';
    case 'array': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      if (new Set(value).size !== value.length) return 'a choice is repeated';
      if (value.some((v) => !field.choices.some((c) => c.value === v)))
        return 'not one of the choices';
      if (field.minItems !== null && value.length < field.minItems)
        return `choose at least ${field.minItems}`;
      if (field.maxItems !== null && value.length > field.maxItems)
        return `choose at most ${field.maxItems}`;
      return null;
    }
  }
}

/**
 * What is wrong with an answer, field by field (`_` for the answer as a whole); empty when it
 * satisfies the form. A field the form does not name is refused: the agent gets only what it asked.
 */
export function answerProblems(form: QuestionForm, answer: QuestionAnswer): Record<string, string> {
  const problems: Record<string, string> = {};
  const names = new Set(form.fields.map((f) => f.name));
  for (const name of Object.keys(answer)) {
    if (!names.has(name)) problems['_'] = `no field named ${name}`;
  }
  for (const field of form.fields) {
    const value = Object.hasOwn(answer, field.name) ? answer[field.name] : undefined;
    if (value === undefined) {
      if (field.required) problems[field.name] = 'required';
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem) problems[field.name] = problem;
  }
  return problems;
}
