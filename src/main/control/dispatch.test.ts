import { describe, expect, it, vi } from 'vitest';
import { commandNames } from '../../shared/contract';
import {
  CONTROL_PROTOCOL,
  controlMethods,
  RPC_ERRORS,
  type StatusResult,
} from '../../shared/control-protocol';
import type { ControlConnection, ControlHandlers } from './connection';
import { dispatchControlLine } from './dispatch';

const STATUS: StatusResult = {
  kind: 'headless',
  pid: 42,
  version: '0.1.0',
  home: '/home/ada/.config/Gatehouse',
  startedAt: 1,
  socket: '/home/ada/.config/Gatehouse/gatehouse.sock',
  url: null,
  sessions: [],
};

/** Every method refusing to be called; a test gives the ones it exercises. */
const UNUSED = Object.fromEntries(
  Object.keys(controlMethods).map((method) => [
    method,
    () => {
      throw new Error('unused');
    },
  ]),
) as unknown as ControlHandlers;

function setup() {
  const handlers = {
    ...UNUSED,
    hello: vi.fn(() => ({
      server: 'gatehouse' as const,
      protocol: CONTROL_PROTOCOL,
      kind: 'headless' as const,
      pid: 42,
      version: '0.1.0',
    })),
    status: vi.fn(() => STATUS),
  };
  const connection: ControlConnection = { client: null };
  const send = (message: unknown) =>
    dispatchControlLine(
      typeof message === 'string' ? message : JSON.stringify(message),
      connection,
      handlers,
    );
  const request = (id: number, method: string, params?: unknown) =>
    send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
  const hello = () =>
    request(0, 'hello', { client: 'proxy', version: '1.0.0', protocol: CONTROL_PROTOCOL });
  return { handlers, connection, send, request, hello };
}

const errorCode = (response: unknown) => (response as { error?: { code: number } }).error?.code;

describe('a control message', () => {
  it('hello, then status', async () => {
    const { request, hello, connection } = setup();
    expect(await hello()).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: {
        server: 'gatehouse',
        protocol: CONTROL_PROTOCOL,
        kind: 'headless',
        pid: 42,
        version: '0.1.0',
      },
    });
    expect(connection.client).toEqual({
      client: 'proxy',
      version: '1.0.0',
      protocol: CONTROL_PROTOCOL,
    });
    expect(await request(1, 'status')).toEqual({ jsonrpc: '2.0', id: 1, result: STATUS });
  });

  it('a blank line is ignored; anything but JSON is a parse error', async () => {
    const { send } = setup();
    expect(await send('   ')).toBeNull();
    expect(await send('{"jsonrpc": "2.0", ')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: RPC_ERRORS.parseError, message: 'parse error: not JSON' },
    });
  });

  it('nested 100,000 levels deep is refused before anything recursive reads it', async () => {
    const { send, handlers } = setup();
    const deep = `{"jsonrpc":"2.0","id":7,"method":"hello","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await send(deep);
    expect(response).toMatchObject({ id: 7, error: { code: RPC_ERRORS.invalidRequest } });
    expect(JSON.stringify(response)).toContain('nested deeper than 64 levels');
    expect(handlers.hello).not.toHaveBeenCalled();
  });

  it.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'status' }]],
    ['a notification (no id)', { jsonrpc: '2.0', method: 'hello' }],
    ['JSON-RPC 1.0', { id: 1, method: 'hello' }],
    ['an unknown member', { jsonrpc: '2.0', id: 1, method: 'hello', session: 'x' }],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'hello' }],
    ['a scalar', 42],
  ])('%s is an invalid request', async (_what, message) => {
    const { send } = setup();
    expect(errorCode(await send(message))).toBe(RPC_ERRORS.invalidRequest);
  });

  it('every method outside the table is "method not found" and runs nothing, before or after hello', async () => {
    const { request, hello, handlers } = setup();
    const names = [
      ...commandNames,
      'vote',
      'updateSettings',
      'setAgentBypass',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'HELLO',
      '',
    ];
    for (const name of names) {
      expect(
        await request(1, name, {
          requestId: '0190d6a4-0000-7000-8000-000000000000',
          optionId: 'yes',
        }),
      ).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: RPC_ERRORS.methodNotFound, message: `method not found: ${name}` },
      });
    }
    await hello();
    for (const name of names)
      expect(errorCode(await request(2, name))).toBe(RPC_ERRORS.methodNotFound);
    expect(handlers.status).not.toHaveBeenCalled();
    expect(handlers.hello).toHaveBeenCalledTimes(1);
  });

  it('status waits for hello; hello is said once', async () => {
    const { request, hello, handlers } = setup();
    expect(errorCode(await request(1, 'status'))).toBe(RPC_ERRORS.helloFirst);
    expect(handlers.status).not.toHaveBeenCalled();
    await hello();
    expect(errorCode(await hello())).toBe(RPC_ERRORS.invalidRequest);
  });

  it('params are checked against the method: client kind, protocol, no extra members', async () => {
    const { request, connection } = setup();
    const hello = (params: unknown) => request(1, 'hello', params);
    expect(
      errorCode(await hello({ client: 'browser', version: '1', protocol: CONTROL_PROTOCOL })),
    ).toBe(RPC_ERRORS.invalidParams);
    expect(
      await hello({ client: 'cli', version: '1', protocol: CONTROL_PROTOCOL + 1 }),
    ).toMatchObject({
      error: {
        code: RPC_ERRORS.invalidParams,
        message: expect.stringContaining('not spoken here'),
      },
    });
    expect(
      errorCode(
        await hello({ client: 'cli', version: '1', protocol: CONTROL_PROTOCOL, token: 'x' }),
      ),
    ).toBe(RPC_ERRORS.invalidParams);
    expect(connection.client).toBeNull();
    await hello({ client: 'cli', version: '1', protocol: CONTROL_PROTOCOL });
    expect(errorCode(await request(2, 'status', { sessionId: 'other' }))).toBe(
      RPC_ERRORS.invalidParams,
    );
  });

  it('a failing method answers an internal error without its details, and reports it', async () => {
    const connection: ControlConnection = {
      client: { client: 'cli', version: '1', protocol: CONTROL_PROTOCOL },
    };
    const report = vi.fn();
    const handlers: ControlHandlers = {
      ...UNUSED,
      status: () => {
        throw new Error('secret detail');
      },
    };
    const response = await dispatchControlLine(
      '{"jsonrpc":"2.0","id":"s","method":"status"}',
      connection,
      handlers,
      report,
    );
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 's',
      error: { code: RPC_ERRORS.internalError, message: 'internal error in status' },
    });
    expect(report).toHaveBeenCalledWith(new Error('secret detail'));
  });

  it('a notice (no id) of a method marked so runs and is never answered; a malformed one runs nothing', async () => {
    const report = vi.fn();
    const update = vi.fn(() => ({ ok: true as const }));
    const handlers = { ...setup().handlers, 'session.update': update };
    const connection: ControlConnection = { client: null };
    const send = (message: unknown) =>
      dispatchControlLine(JSON.stringify(message), connection, handlers, report);
    const notice = (params: unknown) => send({ jsonrpc: '2.0', method: 'session.update', params });
    const params = {
      sessionId: '0190d6a4-0000-7000-8000-000000000000',
      update: { sessionUpdate: 'x' },
    };
    // Before hello it runs nothing, and says nothing back.
    expect(await notice(params)).toBeNull();
    expect(update).not.toHaveBeenCalled();
    connection.client = { client: 'proxy', version: '1', protocol: CONTROL_PROTOCOL };
    expect(await notice(params)).toBeNull();
    expect(update).toHaveBeenCalledTimes(1);
    for (const bad of [{ sessionId: 'x' }, { ...params, extra: 1 }, undefined])
      expect(await notice(bad)).toBeNull();
    expect(await send({ jsonrpc: '2.0', method: 'session.update', params, token: 'x' })).toBeNull();
    expect(update).toHaveBeenCalledTimes(1);
    expect(report).toHaveBeenCalledTimes(5);
    // A method that answers is still refused without an id; with an id, a notice method answers.
    expect(errorCode(await send({ jsonrpc: '2.0', method: 'status' }))).toBe(
      RPC_ERRORS.invalidRequest,
    );
    expect(await send({ jsonrpc: '2.0', id: 5, method: 'session.update', params })).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { ok: true },
    });
  });
});
