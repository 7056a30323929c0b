import { describe, expect, it } from 'vitest';
import { activationLink, approveLink, deepLinkFromArgv, parseDeepLink } from './deep-link';

const ID = '0190f0a0-1234-7abc-8def-0123456789ab';

describe('gatehouse:// links', () => {
  it('approve/<requestId> opens the dialog on a request; open/<view> opens a window', () => {
    expect(parseDeepLink(approveLink(ID))).toEqual({ type: 'approve', requestId: ID });
    expect(parseDeepLink(`gatehouse://approve/${ID.toUpperCase()}`)).toEqual({
      type: 'approve',
      requestId: ID,
    });
    expect(parseDeepLink('gatehouse://open/history')).toEqual({ type: 'open', view: 'history' });
    expect(parseDeepLink('gatehouse://open/settings/')).toEqual({ type: 'open', view: 'settings' });
  });

  it('notification/<token> carries a toast activation token, nothing else', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(parseDeepLink(activationLink(token))).toEqual({ type: 'activation', token });
    expect(parseDeepLink('gatehouse://notification/short')).toBeNull();
  });

  it('refuses anything else: no link can vote', () => {
    for (const link of [
      `gatehouse://vote/${ID}?option=allow`,
      'gatehouse://approve/not-a-uuid',
      `gatehouse://approve/${ID}/extra`,
      'gatehouse://approve/',
      'gatehouse://open/devtools',
      'gatehouse://app/index.html',
      `gatehouse://user:pw@approve/${ID}`,
      `gatehouse://approve:99/${ID}`,
      `https://approve/${ID}`,
      `gatehouse://approve/${ID}${'x'.repeat(600)}`,
      'gatehouse:',
      '',
    ]) {
      expect(parseDeepLink(link), link).toBeNull();
    }
  });

  it('finds the link in a command line (first launch or second instance)', () => {
    expect(deepLinkFromArgv(['/opt/Gatehouse/gatehouse', '--no-sandbox', approveLink(ID)])).toEqual(
      { type: 'approve', requestId: ID },
    );
    expect(
      deepLinkFromArgv([
        'electron',
        'out/main/index.js',
        'gatehouse://bogus',
        'GATEHOUSE://open/history',
      ]),
    ).toEqual({
      type: 'open',
      view: 'history',
    });
    expect(deepLinkFromArgv(['gatehouse', '--hidden'])).toBeNull();
  });
});
