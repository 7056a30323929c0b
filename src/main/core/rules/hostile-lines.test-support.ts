// Hostile command lines that used to hold the main thread for seconds or minutes, shared by the
// tests of what reads them: the rules' analysis and the safety warnings.
export type HostileLine = [name: string, make: () => string];

/** Over the length bound, or under it and over the substitution bound. */
export const HOSTILE_LINES: HostileLine[] = [
  ['100,000 substitutions', () => `echo ${'$(echo) '.repeat(100_000)}`],
  ['10 MB', () => `echo ${'a'.repeat(10 * 1024 * 1024)}`],
  ['10,000 nested substitutions', () => `echo ${'$('.repeat(10_000)}echo${')'.repeat(10_000)}`],
  ['1,000,000 words', () => Array.from({ length: 1_000_000 }, () => 'echo').join(';')],
  ['300 substitutions', () => `echo ${'$(echo) '.repeat(300)}`],
];
