export function electronPackageDir(): string | null;
export function electronBinary(options?: {
  env?: Record<string, string | undefined>;
  packageDir?: string | null;
}): string | null;
export const MISSING_ELECTRON: string;
export function electronViteBin(require: NodeJS.Require): string;
