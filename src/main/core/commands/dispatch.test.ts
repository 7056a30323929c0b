import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../approvals/clients';
import {
  AgentGoneError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '../errors';
import { InvalidPermissionOptionError } from '../mediator';
import { EncodedJson } from '../store';
import { encodeJson } from '../store/encoded-json';
import { dispatch, type Handlers } from './dispatch';

const caller: Caller = {
  clientId: 'desktop',
  identityProven: true,
  paired: true,
  fromLoopback: true,
  surface: 'dialog',
  transport: 'internal',
};
const REQUEST_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

/** Only the commands a case calls; the dispatcher looks a handler up by name. */
const handlers = (some: Partial<Handlers>) => some as Handlers;

/** historyDetail of REQUEST_ID, answered by the given handler. */
const detailWith = (historyDetail: Handlers['historyDetail']) =>
  dispatch(handlers({ historyDetail }), 'historyDetail', { requestId: REQUEST_ID }, caller);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('dispatch', () => {
  it('refuses a name the contract does not declare, without calling anything', async () => {
    await expect(dispatch(handlers({}), 'rm -rf', {}, caller)).resolves.toEqual({
      ok: false,
      status: 404,
      error: { name: 'UnknownCommand', message: 'unknown command rm -rf' },
    });
  });

  it('validates input against the contract before the handler runs', async () => {
    const historyDetail = vi.fn();
    const result = await dispatch(
      handlers({ historyDetail }),
      'historyDetail',
      { requestId: 'nope' },
      caller,
    );
    expect(historyDetail).not.toHaveBeenCalled();
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      error: {
        name: 'ValidationError',
        details: [expect.objectContaining({ path: ['requestId'] })],
      },
    });
  });

  it('passes the parsed input and the caller, and answers with the contract’s status', async () => {
    const vote = vi.fn(() => ({ kind: 'recorded' as const, votesNeeded: 1, tally: null }));
    const result = await dispatch(
      handlers({ vote }),
      'vote',
      { requestId: REQUEST_ID, optionId: 'yes' },
      caller,
    );
    expect(vote).toHaveBeenCalledWith({ requestId: REQUEST_ID, optionId: 'yes' }, caller);
    expect(result).toEqual({
      ok: true,
      status: 202,
      result: { kind: 'recorded', votesNeeded: 1, tally: null },
    });
  });

  it.each([
    [new BadRequestError('folder must be absolute', ['rules: x']), 400],
    [new ForbiddenError('only a paired client may revoke a client'), 403],
    [new NotFoundError('no decided request'), 404],
    [new ConflictError('a turn is already running'), 409],
    [new AgentGoneError('agent "coder" exited (code 1)'), 502],
    [new InvalidPermissionOptionError('sudo', REQUEST_ID), 400],
  ])('maps %s to HTTP %i, keeping its name, message and details', async (error, status) => {
    const result = await detailWith(() => {
      throw error;
    });
    expect(result).toEqual({
      ok: false,
      status,
      error: {
        name: error.name,
        message: error.message,
        details: error instanceof BadRequestError ? ['rules: x'] : undefined,
      },
    });
  });

  it('hides an unexpected failure behind a 500', async () => {
    // The failure is reported where Gatehouse logs; the test keeps its output quiet.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await detailWith(async () => {
      throw new Error('SQLITE_CORRUPT at /secret/path');
    });
    expect(result).toEqual({
      ok: false,
      status: 500,
      error: { name: 'InternalError', message: 'internal error' },
    });
  });

  describe('an answer encoded as JSON where it was made (a history page)', () => {
    const page = { items: [], nextCursor: 'abc' };
    const encoded = (value: unknown) => () => new EncodedJson(encodeJson(value)) as never;

    it('is handed on as its bytes to a transport that sends JSON', async () => {
      const answer = encoded(page)();
      const result = await dispatch(handlers({ history: () => answer }), 'history', {}, caller, {
        encoded: true,
      });
      expect(result).toEqual({ ok: true, status: 200, result: answer });
    });

    it('is decoded and checked against the contract for any other transport', async () => {
      const result = await dispatch(handlers({ history: encoded(page) }), 'history', {}, caller);
      expect(result).toEqual({ ok: true, status: 200, result: page });
      const drifted = await dispatch(
        handlers({ history: encoded({ items: [{ requestId: 'nope' }], nextCursor: null }) }),
        'history',
        {},
        caller,
      );
      expect(drifted).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    });

    it('still waits for the input to pass the contract', async () => {
      const history = vi.fn(encoded(page));
      const result = await dispatch(handlers({ history }), 'history', { limit: 501 }, caller, {
        encoded: true,
      });
      expect(history).not.toHaveBeenCalled();
      expect(result).toMatchObject({ ok: false, status: 400 });
    });
  });
});
