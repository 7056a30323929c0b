import { describe, expect, it } from 'vitest';
import { Settings } from '../../../shared/settings';
import { knownSecrets, redactArgs, redactSettings, redactUrl, REDACTED, scrub } from './redact';

const settings = Settings.parse({
  agents: {
    claude: {
      command: 'claude-agent',
      args: ['--api-key', 'sk-flag-value', '--token=tok-inline-value', '--verbose', 'plain'],
      env: { ANTHROPIC_API_KEY: 'sk-env-value', HTTPS_PROXY: 'http://bob:hunter22@proxy:8080' },
    },
  },
  telemetry: {
    otlp: {
      endpoint: 'https://user:pw-in-url@collector.example/otlp?api_key=query-secret',
      headers: { 'x-tenant': 'tenant-header-value', authorization: 'Bearer header-bearer' },
    },
  },
});

describe('support bundle redaction', () => {
  it('settings keep their shape and lose every secret value', () => {
    const text = JSON.stringify(redactSettings(settings));
    for (const secret of [
      'sk-flag-value',
      'tok-inline-value',
      'sk-env-value',
      'hunter22',
      'pw-in-url',
      'query-secret',
      'tenant-header-value',
      'header-bearer',
    ]) {
      expect(text).not.toContain(secret);
    }
    const redacted = redactSettings(settings) as Settings;
    const agent = redacted.agents.claude!;
    expect(agent.command).toBe('claude-agent');
    expect(agent.args).toEqual([
      '--api-key',
      REDACTED,
      `--token=${REDACTED}`,
      '--verbose',
      'plain',
    ]);
    expect(agent.env.HTTPS_PROXY).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(Object.keys(redacted.telemetry.otlp!.headers)).toEqual(['x-tenant', 'authorization']);
    expect(redacted.telemetry.otlp!.endpoint).toBe(
      'https://redacted:redacted@collector.example/otlp?api_key=redacted',
    );
  });

  it('a URL without credentials, and text that is no URL, pass unchanged', () => {
    expect(redactUrl('https://collector.example:4318/')).toBe('https://collector.example:4318/');
    expect(redactUrl('/usr/bin/gemini')).toBe('/usr/bin/gemini');
    expect(redactArgs(['--model', 'opus']).args).toEqual(['--model', 'opus']);
  });

  it('known secrets from settings and environment are cut out of free text', () => {
    const secrets = knownSecrets(settings, {
      GATEHOUSE_TOKEN: 'gatehouse-bearer-token',
      GATEHOUSE_AUDIT_KEY: 'audit-key-hex-value',
      PATH: '/usr/bin',
      GATEHOUSE_HOME: '/home/x/.gatehouse',
    });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'sk-env-value',
        'sk-flag-value',
        'tenant-header-value',
        'gatehouse-bearer-token',
        'audit-key-hex-value',
      ]),
    );
    expect(secrets).not.toContain('/usr/bin');
    const log = 'started with sk-env-value; client said gatehouse-bearer-token; PATH=/usr/bin';
    expect(scrub(log, secrets)).toBe(
      `started with ${REDACTED}; client said ${REDACTED}; PATH=/usr/bin`,
    );
  });

  it('credential-looking assignments are cut even when the value is not known', () => {
    expect(scrub('Authorization: Bearer abc.def', [])).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(scrub('GITHUB_TOKEN=ghp_x1 next', [])).toBe(`GITHUB_TOKEN=${REDACTED} next`);
    expect(scrub('{"apiKey": "k-123"}', [])).toBe(`{"apiKey": "${REDACTED}"}`);
    expect(scrub('decided in 12 ms', [])).toBe('decided in 12 ms');
  });
});
