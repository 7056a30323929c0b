// Every bound the safety layer applies, in one place so the dialog, the audit and the tests agree.
// Agents are untrusted: any string or list they send can be arbitrarily large.

/** Titles longer than this are cut, with a visible marker saying how much was dropped. */
export const TITLE_MAX_CHARS = 2_000;
/** Tool call ids are correlation keys; anything longer than this is hostile, not an id. */
export const TOOL_CALL_ID_MAX_CHARS = 1_000;
/** Longer than any real path (PATH_MAX is 4096 on Linux); cut with a marker beyond it. */
export const PATH_MAX_CHARS = 4_096;
/** Locations kept per request; a person cannot review more, and the audit keeps rawInput whole. */
export const MAX_LOCATIONS = 1_000;
/** Size of the display copy of rawInput (the audit keeps the value itself). */
export const RAW_INPUT_PREVIEW_MAX_CHARS = 20_000;

/** Per side of a diff: text beyond either bound is cut at a line boundary. */
export const DEFAULT_DIFF_MAX_BYTES = 1024 * 1024;
export const DEFAULT_DIFF_MAX_LINES = 100_000;
/** Binary detection looks at the head of a text only, like git does. */
export const BINARY_SAMPLE_CHARS = 64 * 1024;

/** Warnings of one code beyond this collapse into a single "and N more" warning. */
export const MAX_WARNINGS_PER_CODE = 20;
/** Nesting of `sh -c`, `$(…)`, `<(…)`, `eval` followed when analysing a command. */
export const SHELL_MAX_DEPTH = 4;
/** Strings of rawInput scanned for hidden characters (after command, title, paths, diffs). */
export const MAX_RAW_INPUT_STRINGS_SCANNED = 2_000;
/** Characters of one free text (rawInput leaf, content text) scanned for hidden characters. */
export const MAX_SCAN_CHARS = DEFAULT_DIFF_MAX_BYTES;
