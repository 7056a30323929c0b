import { describe, expect, it } from 'vitest';
import { parseQuestionRequest, secretAsked } from './question-request';

const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  sessionId: 's1',
  mode: 'form',
  message: 'Tell me',
  requestedSchema: { type: 'object', properties, ...extra },
});

describe('an agent question as Gatehouse accepts it', () => {
  it('builds the form from every property type of the subset, in order', () => {
    const parsed = parseQuestionRequest(
      form(
        {
          name: { type: 'string', title: 'Name', minLength: 1, format: 'email', default: 'a@b.c' },
          size: { type: 'number', minimum: 0.5, maximum: 2 },
          count: { type: 'integer', default: 3 },
          ok: { type: 'boolean', default: true },
          color: { type: 'string', enum: ['red', 'blue'] },
          tier: { type: 'string', oneOf: [{ const: 't1', title: 'Tier one' }] },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
        },
        { required: ['name'] },
      ),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || parsed.question.mode !== 'form') return;
    const { fields } = parsed.question.form;
    expect(fields.map((f) => `${f.name}:${f.type}:${f.required}`)).toEqual([
      'name:string:true',
      'size:number:false',
      'count:integer:false',
      'ok:boolean:false',
      'color:string:false',
      'tier:string:false',
      'tags:array:false',
    ]);
    expect(fields[5]).toMatchObject({ choices: [{ value: 't1', title: 'Tier one' }] });
  });

  it.each([
    ['a nested object', { a: { type: 'object', properties: {} } }],
    [
      'a pattern (an agent’s regular expression is never run)',
      { a: { type: 'string', pattern: '^(a+)+$' } },
    ],
    ['a $ref', { a: { $ref: '#/defs/x' } }],
    ['an unknown type', { a: { type: 'file' } }],
    ['an unknown format', { a: { type: 'string', format: 'ipv4' } }],
    ['a default outside its choices', { a: { type: 'string', enum: ['x'], default: 'y' } }],
    ['an array of free text', { a: { type: 'array', items: { type: 'string' } } }],
  ])('refuses %s as outside the subset', (_what, properties) => {
    expect(parseQuestionRequest(form(properties))).toMatchObject({
      ok: false,
      refusal: 'outside_subset',
    });
  });

  it('refuses a required name no property has, and more fields than a form may hold', () => {
    expect(
      parseQuestionRequest(form({ a: { type: 'string' } }, { required: ['b'] })),
    ).toMatchObject({
      refusal: 'outside_subset',
    });
    const many = Object.fromEntries(
      Array.from({ length: 33 }, (_, i) => [`f${i}`, { type: 'boolean' }]),
    );
    expect(parseQuestionRequest(form(many))).toMatchObject({ refusal: 'outside_subset' });
  });

  it('refuses a 10 MB schema by its size, before reading it as a form', () => {
    const huge = form({ a: { type: 'string', description: 'x'.repeat(10 * 1024 * 1024) } });
    expect(parseQuestionRequest(huge)).toMatchObject({ ok: false, refusal: 'too_large' });
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 20; i++) deep = { type: 'object', properties: { a: deep } };
    expect(parseQuestionRequest(form({ a: deep }))).toMatchObject({ refusal: 'too_large' });
  });

  it.each([
    ['password', { type: 'string' }],
    ['pw', { type: 'string', format: 'password' }],
    ['pw', { type: 'string', title: 'Pass-Word' }],
    ['x', { type: 'string', description: 'your GitHub personal access token' }],
    ['k', { type: 'string', title: 'API key' }],
    ['k', { type: 'string', title: 'api\u200bkey' }],
    ['phrase', { type: 'string', description: 'the wallet seed phrase' }],
    ['secret_answer', { type: 'boolean' }],
  ])('refuses a form asking for a secret (%s)', (name, property) => {
    expect(parseQuestionRequest(form({ [name]: property }))).toMatchObject({
      ok: false,
      refusal: 'secret',
    });
  });

  it('does not take a name or an email for a secret', () => {
    expect(secretAsked('user', { type: 'string', title: 'User name' })).toBeNull();
    expect(secretAsked('email', { type: 'string', format: 'email' })).toBeNull();
  });

  it('accepts an http(s) link and names its host; refuses every other link', () => {
    const url = (u: string) =>
      parseQuestionRequest({
        sessionId: 's',
        mode: 'url',
        message: 'm',
        elicitationId: 'e',
        url: u,
      });
    expect(url('https://xn--80ak6aa92e.com/a')).toMatchObject({
      ok: true,
      question: { host: 'xn--80ak6aa92e.com' },
    });
    expect(url('https://аррӏе.com/')).toMatchObject({
      ok: true,
      question: { host: 'xn--80ak6aa92e.com' },
    });
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
      'https://a.com@b.net/',
      'nope',
    ])
      expect(url(bad)).toMatchObject({ ok: false, refusal: 'unsafe_url' });
  });

  it('refuses a mode it does not serve and a question outside a session', () => {
    expect(parseQuestionRequest({ sessionId: 's', mode: '_custom', message: 'm' })).toMatchObject({
      refusal: 'unsupported_mode',
    });
    expect(parseQuestionRequest({ requestId: 3, mode: 'form', message: 'm' })).toMatchObject({
      refusal: 'malformed',
    });
  });
});
