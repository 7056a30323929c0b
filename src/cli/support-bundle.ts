// `gatehouse support-bundle [--out <file>]`: the support bundle (core/support/bundle.ts) written to a
// file, with or without a running core.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUNDLE_AUDIT_ENTRIES, bundleName, bundleZip, resolveHome } from '../main/core';
import { EXIT, type CliIo } from './io';

export const SUPPORT_BUNDLE_HELP = `Usage: gatehouse support-bundle [--out <file>]

Writes a zip to attach to a bug report: the log files of $GATEHOUSE_HOME, settings.json with secrets
redacted (agents' environment values hashed, telemetry headers and credential-like values removed),
versions, the metadata of the last ${BUNDLE_AUDIT_ENTRIES} audit entries (kinds, times, ids, decisions; no titles,
commands, paths, diffs or prompts) and the result of \`gatehouse audit verify\`.
Reads only; safe while Gatehouse runs. Default file: gatehouse-support-<time>.zip here.`;

export function supportBundle(out: string | undefined, io: CliIo): number {
  const home = resolveHome(io.env);
  const file = resolve(out ?? bundleName(new Date()));
  try {
    const zip = bundleZip({ home, env: io.env });
    // 'wx': an existing file (or a link planted where the bundle goes) is never written through.
    writeFileSync(file, zip, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    io.err(`support-bundle: cannot write ${file}: ${(err as Error).message}`);
    return EXIT.failed;
  }
  io.out(file);
  return EXIT.ok;
}
