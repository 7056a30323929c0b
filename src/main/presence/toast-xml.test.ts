import { describe, expect, it } from 'vitest';
import { ActivationTokens } from './activation-tokens';
import { requestNotification } from './notification-plan';
import { toastXml, xmlEscape } from './toast-xml';
import { bash } from './fixtures.test-support';

describe('activation tokens (Windows toast buttons)', () => {
  it('are unguessable, single use, and spent together with their notification', () => {
    const tokens = new ActivationTokens();
    const allow = tokens.issue('req-1', 'allow_once');
    const deny = tokens.issue('req-1', 'deny');
    const other = tokens.issue('req-2', 'deny');
    expect(allow).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set([allow, deny, other]).size).toBe(3);
    expect(tokens.take(deny)).toEqual({ key: 'req-1', action: 'deny' });
    expect(tokens.take(deny)).toBeNull();
    expect(tokens.take(allow)).toBeNull();
    tokens.revoke('req-2');
    expect(tokens.take(other)).toBeNull();
    expect(tokens.take('guess')).toBeNull();
    expect(tokens.size).toBe(0);
  });
});

describe('toastXml', () => {
  it('has the texts and one protocol-activation button per action', () => {
    const model = requestNotification(bash('make <all> && echo "done" \'x\''));
    const xml = toastXml(model, (action) => `gatehouse://notification/tok-${action}`);
    expect(xml).toContain(
      '<toast launch="gatehouse://notification/tok-default" activationType="protocol" scenario="reminder">',
    );
    expect(xml).toContain('<text>Claude Code wants to run a command</text>');
    expect(xml).toContain(
      '<text>$ make &lt;all&gt; &amp;&amp; echo &quot;done&quot; &apos;x&apos;</text>',
    );
    for (const [label, id] of [
      ['Allow once', 'allow_once'],
      ['Always', 'allow_always'],
      ['Deny', 'deny'],
    ]) {
      expect(xml).toContain(
        `<action content="${label}" arguments="gatehouse://notification/tok-${id}" activationType="protocol"/>`,
      );
    }
    // Nothing from the request can open an element or an attribute.
    expect(xml.match(/</g)).toHaveLength(
      xml.match(/<\/?(toast|visual|binding|text|actions|action)\b/g)!.length,
    );
  });

  it('drops what XML 1.0 cannot carry', () => {
    expect(xmlEscape('a\u0000b\u0008c\ud800d\uffffe')).toBe('abcde');
    expect(xmlEscape('😀')).toBe('😀');
  });
});
