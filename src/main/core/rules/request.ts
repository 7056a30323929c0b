/**
 * A request reduced once to what matching needs: parsed shell, resolved paths, write targets.
 * Shared by evaluate, grants and history so they all see the same facts the same way.
 */
import nodePath from 'node:path';
import { newLookups, PathResolver, type Lookups, type ResolvedPath } from './paths';
import { analyzeCommand } from './shell/analyze';
import { isFileWrite } from './shell/commands';
import type { RequestFacts, ShellAnalysis, SimpleCommand, ToolKind } from './types';

export interface PreparedRequest {
  facts: RequestFacts;
  kind: ToolKind | undefined;
  /** The request carried non-blank shell text. */
  hasCommandText: boolean;
  analysis: ShellAnalysis | undefined;
  /** Simple commands: all of them when simple; the visible ones when opaque (deny/ask only). */
  parts: SimpleCommand[];
  opaque: boolean;
  root: ResolvedPath;
  paths: ResolvedPath[];
  /** Files the shell command writes through redirections (`> out.txt`). */
  writes: ResolvedPath[];
  projectRoot: string | undefined;
  resolver: PathResolver;
  /** What this request has asked the disk, and may still ask. */
  lookups: Lookups;
}

let defaultResolver: PathResolver | null = null;

export function getDefaultResolver(): PathResolver {
  defaultResolver ??= new PathResolver();
  return defaultResolver;
}

export function prepareRequest(
  facts: RequestFacts,
  resolver: PathResolver = getDefaultResolver(),
): PreparedRequest {
  const cwd = facts.sessionCwd;
  const command = facts.command;
  const hasCommandText = command !== undefined && command.trim() !== '';
  const analysis = command !== undefined ? analyzeCommand(command) : undefined;
  const parts =
    analysis === undefined ? [] : analysis.kind === 'simple' ? analysis.commands : analysis.visible;
  const lookups = newLookups();
  const writes: ResolvedPath[] = [];
  // After `cd`/`pushd`/`popd` a relative target is relative to a directory we do not know.
  let cwdKnown = true;
  for (const part of parts) {
    for (const r of part.redirects) {
      if (!isFileWrite(r.op, r.target)) continue;
      const target = resolver.expandHome(r.target);
      const unknownDir = !cwdKnown && !nodePath.isAbsolute(target);
      writes.push(resolver.resolve(target, cwd, r.dynamic === true || unknownDir, lookups));
    }
    if (['cd', 'pushd', 'popd'].includes(part.argv[0] ?? '')) cwdKnown = false;
  }
  return {
    facts,
    kind: facts.toolKind,
    hasCommandText,
    analysis,
    parts,
    opaque: analysis?.kind === 'opaque',
    root: resolver.root(cwd),
    paths: (facts.paths ?? []).map((p) => resolver.resolve(p, cwd, false, lookups)),
    writes,
    projectRoot: facts.projectRoot === undefined ? undefined : normalizeRoot(facts.projectRoot),
    resolver,
    lookups,
  };
}

/** Project roots are compared textually after normalisation (no trailing slash, no `..`). */
export function normalizeRoot(root: string): string {
  return nodePath.resolve(root);
}

export function hasFileWrites(cmd: SimpleCommand): boolean {
  return cmd.redirects.some((r) => isFileWrite(r.op, r.target));
}
