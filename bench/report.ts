// What every benchmark prints: a name and its figures, absolute and as ratios to a baseline
// measured in the same process (these machines are shared and noisy; ratios are what we hold).
export type Report = (name: string, figures: Record<string, number | string>) => void;

export const printReport: Report = (name, figures) => {
  const parts = Object.entries(figures).map(([k, v]) => `${k}=${v}`);
  console.log(`${name}\n  ${parts.join('  ')}`);
};

export function quantiles(samples: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));
