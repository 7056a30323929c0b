export const BUILD_INPUT_FILES: readonly string[];
export const BUILD_OUTPUTS_NEEDED: readonly string[];
export function sourcesFingerprint(root: string): string;
export function outputFingerprint(root: string): string;
export interface BuildDecision {
  build: boolean;
  reason: string;
  sources: string;
}
export function buildDecision(root: string): BuildDecision;
export function writeStamp(root: string, sources: string): void;
export function ensureBuilt(
  root: string,
  options?: {
    build?: (root: string) => { ok: boolean; output: string };
    say?: (line: string) => void;
  },
): boolean;
