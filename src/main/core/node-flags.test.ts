// `npm run headless` starts the core with the flags `gatehouse acp` gives the cores it starts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_NODE_FLAGS } from './node-flags';

describe("the core's node flags", () => {
  it('are on the command line of npm run headless, before the entry', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    const run = scripts
      .headless!.split('&&')
      .map((part) => part.trim())
      .find((part) => part.endsWith(' out/main/headless.js'));
    expect(run).toBe(`node ${CORE_NODE_FLAGS.join(' ')} out/main/headless.js`);
  });
});
