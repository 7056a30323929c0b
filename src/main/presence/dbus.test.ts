import { describe, expect, it } from 'vitest';
import { parseBusAddress } from './dbus';

describe('parseBusAddress', () => {
  it('reads unix path, abstract and tcp addresses, the first usable one of a list', () => {
    expect(parseBusAddress('unix:path=/run/user/1000/bus')).toEqual({
      kind: 'path',
      path: '/run/user/1000/bus',
    });
    expect(parseBusAddress('unix:abstract=/tmp/dbus-XYZ,guid=abc')).toEqual({
      kind: 'abstract',
      name: '/tmp/dbus-XYZ',
    });
    expect(parseBusAddress('tcp:host=127.0.0.1,port=5555')).toEqual({
      kind: 'tcp',
      host: '127.0.0.1',
      port: 5555,
    });
    expect(parseBusAddress('launchd:env=X;unix:path=/tmp/a%20b')).toEqual({
      kind: 'path',
      path: '/tmp/a b',
    });
    expect(parseBusAddress('unixexec:path=/bin/x')).toBeNull();
    expect(parseBusAddress('')).toBeNull();
  });
});
