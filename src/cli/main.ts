// The `gatehouse` command (bin/gatehouse.mjs runs the built copy, out/main/cli.js, under plain
// Node): talks to the core that owns $GATEHOUSE_HOME over its control socket, and checks the audit.
import { parseArgs } from 'node:util';
import { GATEHOUSE_VERSION } from '../shared/control-protocol';
import { acp, ACP_HELP, acpHelp } from './acp/command';
import { AGENTS_HELP, fetchRegistry, importRegistry } from './agents-registry';
import { AUDIT_VERIFY_HELP, auditVerify } from './audit-verify';
import { hookCommand, HOOK_HELP } from './hook/command';
import { EXIT, processIo, type CliIo } from './io';
import { status, STATUS_HELP } from './status';
import { supportBundle, SUPPORT_BUNDLE_HELP } from './support-bundle';
import { tokenRotate, TOKEN_HELP } from './token';

const HELP = `Usage: gatehouse <command> [options]

Commands:
  status          whether a Gatehouse core runs on $GATEHOUSE_HOME, which one, and its sessions
  token rotate    a new access token for the browser address (the old one is refused from then on)
  audit verify    check the audit's hash chain and name the first broken entry
  acp             run an ACP agent for an editor, its permission requests decided by Gatehouse
  hook            ask Gatehouse before Claude Code or Gemini CLI runs a tool (install, uninstall)
  support-bundle  write a zip for a bug report: logs, redacted settings, versions, audit metadata
  agents          the ACP Registry snapshot: import-registry <file>, fetch-registry

Options:
  -h, --help      this text; \`gatehouse <command> --help\` for a command's
  -v, --version

GATEHOUSE_HOME selects the data folder (default: the OS's, as the app uses).`;

const AUDIT_HELP = `Usage: gatehouse audit verify [database]

Commands:
  verify    check the audit's hash chain (\`gatehouse audit verify --help\`)`;

type Parsed = {
  help: boolean;
  json: boolean;
  url: boolean;
  version: boolean;
  agent?: string;
  name?: string;
  user: boolean;
  project?: string;
  out?: string;
  positionals: string[];
};

function parse(args: string[]): Parsed {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      url: { type: 'boolean' },
      version: { type: 'boolean', short: 'v' },
      agent: { type: 'string' },
      name: { type: 'string' },
      user: { type: 'boolean' },
      project: { type: 'string' },
      out: { type: 'string' },
    },
  });
  return {
    help: values.help ?? false,
    json: values.json ?? false,
    url: values.url ?? false,
    version: values.version ?? false,
    ...(values.agent === undefined ? {} : { agent: values.agent }),
    ...(values.name === undefined ? {} : { name: values.name }),
    user: values.user ?? false,
    ...(values.project === undefined ? {} : { project: values.project }),
    ...(values.out === undefined ? {} : { out: values.out }),
    positionals,
  };
}

function usage(io: CliIo, message: string, help: string): number {
  io.err(`gatehouse: ${message}\n\n${help}`);
  return EXIT.usage;
}

export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  let parsed: Parsed;
  try {
    // Options are read after the command word, so `gatehouse --help` and `gatehouse status --help` both work.
    parsed = parse(command?.startsWith('-') ? [...argv] : rest);
  } catch (error) {
    return usage(io, (error as Error).message, HELP);
  }
  const { help, json, version, positionals } = parsed;
  const done = (text: string) => {
    io.out(text);
    return EXIT.ok;
  };
  if (version) return done(GATEHOUSE_VERSION);
  if (command === undefined || command.startsWith('-')) {
    if (help) return done(HELP);
    return usage(io, command ? `unknown option ${command}` : 'no command given', HELP);
  }
  if (json && command !== 'status') return usage(io, `--json is an option of status only`, HELP);
  if (parsed.url && command !== 'status')
    return usage(io, `--url is an option of status only`, HELP);
  if (parsed.out !== undefined && command !== 'support-bundle')
    return usage(io, `--out is an option of support-bundle only`, HELP);
  switch (command) {
    case 'status':
      if (help) return done(STATUS_HELP);
      if (positionals.length > 0) return usage(io, `status takes no arguments`, STATUS_HELP);
      if (json && parsed.url) return usage(io, 'status: --json or --url, not both', STATUS_HELP);
      return status({ json, url: parsed.url }, io);
    case 'token': {
      const [sub, ...extra] = positionals;
      if (help || sub === undefined)
        return help ? done(TOKEN_HELP) : usage(io, 'token: which command?', TOKEN_HELP);
      if (sub !== 'rotate') return usage(io, `token: unknown command ${sub}`, TOKEN_HELP);
      if (extra.length > 0) return usage(io, 'token rotate takes no arguments', TOKEN_HELP);
      return tokenRotate(io);
    }
    case 'audit': {
      const [sub, ...files] = positionals;
      if (sub === undefined)
        return help ? done(AUDIT_HELP) : usage(io, 'audit: which check?', AUDIT_HELP);
      if (sub !== 'verify') return usage(io, `audit: unknown command ${sub}`, AUDIT_HELP);
      if (help) return done(AUDIT_VERIFY_HELP);
      if (files.length > 1)
        return usage(io, 'audit verify takes one database at most', AUDIT_VERIFY_HELP);
      return auditVerify(files[0], io);
    }
    case 'acp': {
      if (help) return done(acpHelp());
      const { agent, name } = parsed;
      if ((agent === undefined) === (positionals.length === 0)) {
        return usage(io, 'acp: give either --agent <id> or -- <agent command>', ACP_HELP);
      }
      if (agent !== undefined && name !== undefined)
        return usage(io, 'acp: --name goes with -- <command>', ACP_HELP);
      return acp(
        {
          ...(agent === undefined ? {} : { agent }),
          ...(name === undefined ? {} : { name }),
          command: positionals,
        },
        io,
      );
    }
    case 'hook': {
      if (help) return done(HOOK_HELP);
      const { user, project } = parsed;
      const problem = hookCommand(
        positionals,
        { user, ...(project === undefined ? {} : { project }) },
        io,
      );
      return typeof problem === 'string' ? usage(io, problem, HOOK_HELP) : problem;
    }
    case 'agents': {
      const [sub, ...files] = positionals;
      if (help || sub === undefined)
        return help ? done(AGENTS_HELP) : usage(io, 'agents: which command?', AGENTS_HELP);
      if (sub === 'import-registry' && files.length === 1) return importRegistry(files[0]!, io);
      if (sub === 'import-registry')
        return usage(io, 'agents import-registry takes one file', AGENTS_HELP);
      if (sub === 'fetch-registry' && files.length === 0) return fetchRegistry(io);
      if (sub === 'fetch-registry')
        return usage(io, 'agents fetch-registry takes no arguments', AGENTS_HELP);
      return usage(io, `agents: unknown command ${sub}`, AGENTS_HELP);
    }
    case 'support-bundle':
      if (help) return done(SUPPORT_BUNDLE_HELP);
      if (positionals.length > 0)
        return usage(
          io,
          'support-bundle takes no arguments (--out <file> names the zip)',
          SUPPORT_BUNDLE_HELP,
        );
      return supportBundle(parsed.out, io);
    default:
      return usage(io, `unknown command ${command}`, HELP);
  }
}
