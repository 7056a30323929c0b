/**
 * Rules layer: the pure decision that runs before a person is asked.
 * Call `await initShellParser()` once at startup; everything else is synchronous.
 */
export { initShellParser, isShellParserReady, type ShellParserOptions } from './shell/parse';
export { analyzeCommand, MAX_COMMAND_LENGTH } from './shell/analyze';
export { scriptOfShellArgv } from './shell/argv';
export { evaluate, describeRule, type EvaluateOptions } from './evaluate';
export { standingName, type StandingDecider } from './standing-name';
export {
  validateRules,
  parseRules,
  RulesValidationError,
  type RuleProblem,
  type ValidateResult,
} from './validate';
export {
  resolveMode,
  planDenies,
  PLAN_DENIED_KINDS,
  ACCEPT_EDITS_KINDS,
  ACCEPT_EDITS_PROTECTED,
  type ModeSources,
} from './modes';
export { grantFromRequest, type GrantOptions, type GrantResult } from './grant-from-request';
export { prefixOffer } from './prefix-grant';
export { isGrantActive, revokeGrant, afterGrantUse, compareGrantNarrowness } from './grant-use';
export { preview, type PreviewHit } from './rule-preview';
export { allowAnyReach, newAllowAny } from './allow-any';
export { suggestRules, type RuleSuggestion, type SuggestOptions } from './rule-suggestions';
export {
  PathResolver,
  escapeGlob,
  type FsProbe,
  type PathResolverOptions,
  type ResolvedPath,
} from './paths';
export { parseCommandPattern, formatCommandPattern } from './pattern';
export * from './types';
