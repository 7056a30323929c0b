// The safety layer: what the approval dialog shows must be the truth of the request. Pure
// functions (no file system access), safe to call on hostile agent input.
export {
  normalizeToolCall,
  mergeToolCallUpdate,
  synthesizedTitle,
  SYNTHESIZED_TITLE_PREFIX,
} from './normalize';
export { extractCommand, quoteArgv } from './command';
export { prepareDiffs, diffsNotPrepared, countLines, type PrepareDiffsOptions } from './diff';
export { looksBinary } from './binary';
export { diffHash } from './hash';
export { computeWarnings, type WarningInput } from './warnings';
export { withDiskBefore, type DiskView, type DiskPath, type DiskFile } from './disk';
export { revealInvisibles, type RevealOptions } from '../../../shared/invisible';
export { previewRawInput } from './preview';
export { boundApproval, boundWarning, jsonBytes, type BoundedApproval } from './bound';
