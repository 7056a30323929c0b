#!/usr/bin/env node
// The `gatehouse` command: the CLI built by `npm run build` (out/main/cli.js), under plain Node.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`gatehouse: Node 22.12 or later is needed (this is ${process.version})`);
  process.exit(1);
}
const cli = await import('../out/main/cli.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli.js'))
    throw error;
  console.error('gatehouse: not built yet: run `npm run build` in the checkout first');
  process.exit(1);
});
process.exitCode = await cli.runCli(process.argv.slice(2));
