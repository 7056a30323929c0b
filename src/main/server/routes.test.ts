import { describe, expect, it } from 'vitest';
import { commands, type CommandName } from '../../shared/contract';
import { matchRoute } from './routes';

describe('matchRoute', () => {
  it('finds every command of the contract at its own method and path', () => {
    for (const name of Object.keys(commands) as CommandName[]) {
      const { method, path } = commands[name].http;
      const concrete = path.replace(/:(\w+)/g, 'x');
      expect(matchRoute(method, concrete), `${method} ${path}`).toMatchObject({
        kind: 'found',
        name,
      });
    }
  });

  it('fills path parameters, percent-decoded', () => {
    expect(matchRoute('POST', '/api/approvals/a%2Fb/extend')).toEqual({
      kind: 'found',
      name: 'extendApproval',
      params: { requestId: 'a/b' },
    });
  });

  it('a known path with another method names the methods it has', () => {
    expect(matchRoute('PATCH', '/api/health')).toEqual({
      kind: 'method_not_allowed',
      allowed: ['GET'],
    });
    const clients = matchRoute('PUT', '/api/clients');
    expect(clients.kind === 'method_not_allowed' && [...clients.allowed].sort()).toEqual([
      'GET',
      'POST',
    ]);
  });

  it('an unknown path, a longer or shorter one, or a malformed parameter is not found', () => {
    for (const path of [
      '/api/nope',
      '/api',
      '/api/health/more',
      '/api/approvals/%E0%A4%A/extend',
      '/',
    ]) {
      expect(matchRoute('GET', path), path).toEqual({ kind: 'not_found' });
    }
  });
});
