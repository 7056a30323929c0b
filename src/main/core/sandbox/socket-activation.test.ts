import { describe, expect, it } from 'vitest';
import { activatedLaunch } from './socket-activation';

const spec = {
  forwards: [
    { host: '127.0.0.1', port: 3128, socket: '/run/g/net-1/proxy' },
    { host: '[::1]', port: 8080, socket: '/run/g/net-1/f0' },
  ],
  setEnv: { HTTPS_PROXY: 'http://127.0.0.1:3128' },
  unsetEnv: ['ELECTRON_RUN_AS_NODE'],
};

describe('activatedLaunch', () => {
  it('binds one listener per forward, in the relay’s order, and waits for as many lines', () => {
    const launch = activatedLaunch('/usr/bin/systemd-socket-activate', '/node', spec, null, 'a', [
      'b',
    ])!;
    const script = launch.args[1]!;
    expect(script).toContain(`-l '127.0.0.1:3128' -l '[::1]:8080' "$1" -e "$2" "$3"`);
    expect(script).toContain('[ "$n" -lt 2 ]');
    expect(script).toContain('[ "$n" -eq 2 ] || exit 125');
    // The agent's variables are set on its side only; the relay is told where to listen, no more.
    expect(script).toContain(`export HTTPS_PROXY='http://127.0.0.1:3128'`);
    expect(script).toContain('unset ELECTRON_RUN_AS_NODE');
    expect(JSON.parse(launch.args[5]!)).toEqual({
      forwards: spec.forwards,
      setEnv: {},
      unsetEnv: [],
    });
    expect(launch.args.slice(6)).toEqual(['a', 'b']);
  });

  it('leaves `localhost` to the relay, which binds both loopback addresses', () => {
    const withLocalhost = {
      ...spec,
      forwards: [{ host: 'localhost', port: 11434, socket: '/run/g/net-1/f0' }],
    };
    expect(activatedLaunch('/activate', '/node', withLocalhost, null, 'a', [])).toBeNull();
  });

  it('quotes what the shell reads: a value cannot end its quote, a name must be a name', () => {
    const quoted = activatedLaunch(
      "/opt/it's/activate",
      '/node',
      { ...spec, setEnv: { HTTPS_PROXY: "x'; touch /tmp/owned; '" } },
      null,
      'a',
      [],
    )!;
    expect(quoted.args[1]).toContain(`'/opt/it'\\''s/activate'`);
    expect(quoted.args[1]).toContain(`export HTTPS_PROXY='x'\\''; touch /tmp/owned; '\\'''`);
    expect(() =>
      activatedLaunch('/a', '/node', { ...spec, unsetEnv: ['X; rm -rf ~'] }, null, 'a', []),
    ).toThrow(/not a variable name/);
  });
});
