// An agent's `elicitation/create` as Gatehouse accepts it: bounded before anything recursive reads
// it, then held to the protocol's restricted form schema (a flat object of text, number, integer,
// yes/no and choice fields) or to a plain http(s) link. Anything else is refused, with the reason
// the agent is told and the audit keeps. A form that asks for a secret is refused too: the
// protocol sends secrets through URL mode, never through the client.
import { z } from 'zod';
import {
  QUESTION_LIMITS,
  type PendingQuestion,
  type QuestionField,
  type QuestionForm,
} from '../../../shared/question';
import { checkJsonShape, describeJsonProblem } from './json-guard';

export type QuestionRefusal =
  'too_large' | 'malformed' | 'unsupported_mode' | 'outside_subset' | 'secret' | 'unsafe_url';

export type ParsedQuestion =
  | { ok: true; sessionId: string; question: PendingQuestion }
  | { ok: false; refusal: QuestionRefusal; problems: string[]; sessionId?: string };

const Meta = z.record(z.string(), z.unknown()).nullish();
const Title = z.string().max(QUESTION_LIMITS.title).nullish();
const Description = z.string().max(QUESTION_LIMITS.description).nullish();
const Bound = z.number().int().min(0).max(1_000_000).nullish();
const Limit = z.number().finite().nullish();
const ChoiceValue = z.string().max(QUESTION_LIMITS.choice);
const Titled = z
  .object({ const: ChoiceValue, title: ChoiceValue, description: Description, _meta: Meta })
  .strict();
const Choices = z.array(Titled).min(1).max(QUESTION_LIMITS.choices);
const Values = z.array(ChoiceValue).min(1).max(QUESTION_LIMITS.choices);
const Common = { title: Title, description: Description, _meta: Meta };

// Strict: a key the subset does not name (a nested object, `$ref`, `pattern`, `anyOf` on a string…)
// is refused rather than ignored, so the answer never fails a constraint the person was not shown.
const PropertySchema = z.discriminatedUnion('type', [
  z
    .object({
      ...Common,
      type: z.literal('string'),
      minLength: Bound,
      maxLength: Bound,
      format: z.enum(['email', 'uri', 'date', 'date-time']).nullish(),
      default: z.string().max(QUESTION_LIMITS.text).nullish(),
      enum: Values.nullish(),
      oneOf: Choices.nullish(),
    })
    .strict(),
  z
    .object({ ...Common, type: z.enum(['number', 'integer']), minimum: Limit, maximum: Limit })
    .extend({ default: z.number().finite().nullish() })
    .strict(),
  z.object({ ...Common, type: z.literal('boolean'), default: z.boolean().nullish() }).strict(),
  z
    .object({
      ...Common,
      type: z.literal('array'),
      minItems: Bound,
      maxItems: Bound,
      items: z.union([
        z.object({ type: z.literal('string'), enum: Values, _meta: Meta }).strict(),
        z.object({ anyOf: Choices, _meta: Meta }).strict(),
      ]),
      default: z.array(ChoiceValue).max(QUESTION_LIMITS.choices).nullish(),
    })
    .strict(),
]);

const FieldName = z
  .string()
  .min(1)
  .max(QUESTION_LIMITS.fieldName)
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, 'a field name has no control or invisible characters');

const RequestedSchema = z
  .object({
    type: z.literal('object').optional(),
    title: Title,
    description: Description,
    properties: z
      .record(FieldName, z.unknown())
      .refine((p) => Object.keys(p).length <= QUESTION_LIMITS.fields, {
        message: `at most ${QUESTION_LIMITS.fields} fields`,
      })
      .optional(),
    required: z.array(FieldName).max(QUESTION_LIMITS.fields).nullish(),
    _meta: Meta,
  })
  .strict();

const Scope = {
  sessionId: z.string().min(1).max(200),
  toolCallId: z.string().min(1).max(200).nullish(),
  message: z.string().max(QUESTION_LIMITS.message),
  _meta: Meta,
};
const FormRequest = z
  .object({ ...Scope, mode: z.literal('form'), requestedSchema: z.unknown() })
  .strict();
const UrlRequest = z
  .object({
    ...Scope,
    mode: z.literal('url'),
    elicitationId: z.string().min(1).max(200),
    url: z.string().max(QUESTION_LIMITS.url),
  })
  .strict();

// Words that name a secret, matched on letters and digits alone, so "pass_word", "Pass-Word" and
// "pass\u200bword" read alike. A field that only mentions one is refused as well: fail closed.
const SECRET_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'privatekey',
  'credential',
  'bearer',
  'cvv',
  'creditcard',
  'cardnumber',
  'seedphrase',
  'mnemonic',
];

function squeezed(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The secret a field asks for, by its name, title, description or format; null when none. */
export function secretAsked(name: string, property: unknown): string | null {
  const own = (typeof property === 'object' && property !== null ? property : {}) as Record<
    string,
    unknown
  >;
  if (own['format'] === 'password') return `${name}: format "password"`;
  if (own['writeOnly'] === true) return `${name}: writeOnly`;
  for (const text of [name, own['title'], own['description']]) {
    if (typeof text !== 'string') continue;
    const plain = squeezed(text);
    const word = SECRET_WORDS.find((w) => plain.includes(w));
    if (word) return `${name}: names a ${word === 'apikey' ? 'API key' : word}`;
  }
  return null;
}

const issuesOf = (error: z.ZodError, prefix: string): string[] =>
  error.issues.map((i) => `${[prefix, ...i.path].filter((p) => p !== '').join('.')}: ${i.message}`);

function fieldOf(
  name: string,
  raw: z.infer<typeof PropertySchema>,
  required: boolean,
): QuestionField {
  const base = {
    name,
    title: raw.title ?? null,
    description: raw.description ?? null,
    required,
  };
  switch (raw.type) {
    case 'string': {
      const choices =
        raw.oneOf?.map((o) => ({ value: o.const, title: o.title })) ??
        raw.enum?.map((v) => ({ value: v, title: v })) ??
        null;
      return {
        ...base,
        type: 'string',
        minLength: raw.minLength ?? null,
        maxLength: raw.maxLength ?? null,
        format: raw.format ?? null,
        default: raw.default ?? null,
        choices,
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        type: raw.type,
        minimum: raw.minimum ?? null,
        maximum: raw.maximum ?? null,
        default: raw.default ?? null,
      };
    case 'boolean':
      return { ...base, type: 'boolean', default: raw.default ?? null };
    case 'array': {
      const { items } = raw;
      const choices =
        'anyOf' in items
          ? items.anyOf.map((o) => ({ value: o.const, title: o.title }))
          : items.enum.map((v) => ({ value: v, title: v }));
      return {
        ...base,
        type: 'array',
        choices,
        minItems: raw.minItems ?? null,
        maxItems: raw.maxItems ?? null,
        default: raw.default ?? null,
      };
    }
  }
}

function formOf(
  raw: unknown,
): { form: QuestionForm } | { refusal: QuestionRefusal; problems: string[] } {
  const schema = RequestedSchema.safeParse(raw);
  if (!schema.success)
    return { refusal: 'outside_subset', problems: issuesOf(schema.error, 'requestedSchema') };
  const properties = Object.entries(schema.data.properties ?? {});
  // Secrets first: a password field is refused as one, whatever else is wrong with it.
  const secrets = properties
    .map(([name, property]) => secretAsked(name, property))
    .filter((s) => s !== null);
  if (secrets.length > 0) return { refusal: 'secret', problems: secrets };
  const required = new Set(schema.data.required ?? []);
  const names = new Set(properties.map(([name]) => name));
  const unknown = [...required].filter((name) => !names.has(name));
  if (unknown.length > 0)
    return {
      refusal: 'outside_subset',
      problems: unknown.map((n) => `requestedSchema.required: no property ${n}`),
    };
  const fields: QuestionField[] = [];
  const problems: string[] = [];
  for (const [name, property] of properties) {
    const parsed = PropertySchema.safeParse(property);
    if (!parsed.success) {
      problems.push(...issuesOf(parsed.error, `requestedSchema.properties.${name}`));
      continue;
    }
    const field = fieldOf(name, parsed.data, required.has(name));
    const wrongDefault = defaultProblem(field);
    if (wrongDefault) problems.push(`requestedSchema.properties.${name}.default: ${wrongDefault}`);
    fields.push(field);
  }
  if (problems.length > 0) return { refusal: 'outside_subset', problems };
  return {
    form: {
      title: schema.data.title ?? null,
      description: schema.data.description ?? null,
      fields,
    },
  };
}

/** A default the field itself would refuse is the agent's mistake, not the person's to find. */
function defaultProblem(field: QuestionField): string | null {
  if (field.type === 'string' && field.default !== null && field.choices)
    return field.choices.some((c) => c.value === field.default) ? null : 'not one of the choices';
  if (field.type === 'array' && field.default)
    return field.default.every((d) => field.choices.some((c) => c.value === d))
      ? null
      : 'not one of the choices';
  return null;
}

/** The link as it will be shown: http(s) only, no user name or password before the host. */
function linkOf(url: string): { href: string; host: string } | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url: not a URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `url: scheme ${parsed.protocol} is not http or https`;
  // "https://github.com@example.net/" leads to example.net: a name before the host only misleads.
  if (parsed.username || parsed.password) return 'url: carries a user name or password';
  if (!parsed.host) return 'url: no host';
  return { href: parsed.href, host: parsed.host };
}

const QUESTION_JSON_LIMITS = {
  maxDepth: QUESTION_LIMITS.requestDepth,
  maxNodes: QUESTION_LIMITS.requestValues,
  maxStringBytes: QUESTION_LIMITS.requestBytes,
};

/** An agent's `elicitation/create` params, accepted as a question or refused with why. */
export function parseQuestionRequest(raw: unknown): ParsedQuestion {
  // The walk stops at the first bound crossed: a 10 MB schema costs 64 KiB to refuse.
  const shape = checkJsonShape(raw, QUESTION_JSON_LIMITS);
  if (shape) return { ok: false, refusal: 'too_large', problems: [describeJsonProblem(shape)] };
  const own = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const sessionId = typeof own['sessionId'] === 'string' ? own['sessionId'] : undefined;
  const at = sessionId === undefined ? {} : { sessionId };
  if (own['mode'] !== 'form' && own['mode'] !== 'url') {
    const problem =
      'requestId' in own && !('sessionId' in own)
        ? 'a question outside a session (request scope) has no one to ask here'
        : `mode ${JSON.stringify(own['mode'] ?? null)} is not form or url`;
    return { ok: false, refusal: 'unsupported_mode', problems: [problem], ...at };
  }
  if (own['mode'] === 'form') {
    const request = FormRequest.safeParse(raw);
    if (!request.success)
      return { ok: false, refusal: 'malformed', problems: issuesOf(request.error, ''), ...at };
    const built = formOf(request.data.requestedSchema);
    if ('refusal' in built) return { ok: false, ...built, ...at };
    return {
      ok: true,
      sessionId: request.data.sessionId,
      question: {
        mode: 'form',
        message: request.data.message,
        toolCallId: request.data.toolCallId ?? null,
        form: built.form,
      },
    };
  }
  const request = UrlRequest.safeParse(raw);
  if (!request.success)
    return { ok: false, refusal: 'malformed', problems: issuesOf(request.error, ''), ...at };
  const link = linkOf(request.data.url);
  if (typeof link === 'string')
    return { ok: false, refusal: 'unsafe_url', problems: [link], ...at };
  return {
    ok: true,
    sessionId: request.data.sessionId,
    question: {
      mode: 'url',
      message: request.data.message,
      toolCallId: request.data.toolCallId ?? null,
      elicitationId: request.data.elicitationId,
      url: link.href,
      host: link.host,
    },
  };
}
