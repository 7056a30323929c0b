// Every bound the safety layer applies, in one place so the dialog, the audit and the tests agree.
// Agents are untrusted: any string or list they send can be arbitrarily large. What the rules judge
// is the whole request; what is queued, sent to clients and stored is bounded by the budget below.

/** Titles longer than this are cut for display (warnings are computed on the whole title first). */
export const TITLE_MAX_CHARS = 4_096;
/** Tool call ids are correlation keys; anything longer than this is hostile, not an id. */
export const TOOL_CALL_ID_MAX_CHARS = 1_000;
/** Longer than any real path (PATH_MAX is 4096 on Linux); cut with a marker beyond it. */
export const PATH_MAX_CHARS = 4_096;
/**
 * Paths the rules judge per request (its locations, then its diffs'), and diffs prepared; a person
 * cannot review more, and a request naming more is asked.
 */
export const MAX_LOCATIONS = 1_000;
/**
 * Characters of those paths together: a thousand paths of 128 characters. Each is resolved, matched
 * and checked for protected names, in time linear in its length; 1,000 paths of 4,096 characters
 * held the core's thread for most of a second.
 */
export const MAX_LOCATIONS_CHARS = 128 * 1024;
/** Size of the display copy of rawInput when rawInput itself is too large to send. */
export const RAW_INPUT_PREVIEW_MAX_CHARS = 8_192;

/** Per side of a diff: text beyond either bound is cut at a line boundary. */
export const DEFAULT_DIFF_MAX_BYTES = 1024 * 1024;
export const DEFAULT_DIFF_MAX_LINES = 100_000;
/** Binary detection looks at the head of a text only, like git does. */
export const BINARY_SAMPLE_CHARS = 64 * 1024;

/** Warnings of one code beyond this collapse into a single "and N more" warning. */
export const MAX_WARNINGS_PER_CODE = 20;
/** Strings of rawInput scanned for hidden characters (after command, title, paths, diffs). */
export const MAX_RAW_INPUT_STRINGS_SCANNED = 2_000;
/** Characters of one free text (rawInput leaf, content text) scanned for hidden characters. */
export const MAX_SCAN_CHARS = DEFAULT_DIFF_MAX_BYTES;

// The approval every client sees (queue, event, detail, audit row). The parts add up to about
// APPROVAL_MAX_JSON_BYTES of JSON; a part over its bound is replaced by a marker (size, sha-256,
// and the blob that keeps the original, within STORED_ORIGINALS_MAX_BYTES per request).

/** What one approval should stay under, as JSON. The bounds below are chosen to add up to it. */
export const APPROVAL_MAX_JSON_BYTES = 5 * 1024 * 1024;
/** rawInput as JSON; above it, a marker with a preview of its start. */
export const RAW_INPUT_MAX_BYTES = 96 * 1024;
/** One tool call content item as JSON (a diff item carries whole files: its texts are in `diffs`). */
export const CONTENT_ITEM_MAX_BYTES = 64 * 1024;
/** All content items together, as JSON; items past it become markers. */
export const CONTENT_MAX_BYTES = 128 * 1024;
/** Content items kept one by one; the rest become one marker. */
export const MAX_CONTENT_ITEMS = 64;
/** The locations shown, as JSON; the whole list (up to MAX_LOCATIONS) is what the rules judge. */
export const LOCATIONS_MAX_BYTES = 32 * 1024;
/** The command view (command, args, cwd) as JSON; above it, command and args are cut. */
export const COMMAND_MAX_BYTES = 32 * 1024;
/** Characters of the command (and of all its args together) kept when the view is cut. */
export const COMMAND_MAX_CHARS = 8 * 1024;
/**
 * Diff texts of one request together, in UTF-8 bytes (each side also within its own bound). A person
 * reviews a 10,000-line edit whole, so one file's two sides fit; most of the approval's budget is here.
 */
export const DIFF_SIDE_MAX_BYTES = DEFAULT_DIFF_MAX_BYTES;
export const DIFFS_TEXT_MAX_BYTES = 2 * DEFAULT_DIFF_MAX_BYTES;
/** Prepared diffs shown, as JSON (texts escaped: a newline takes two bytes) and by count. */
export const DIFFS_MAX_BYTES = 4 * DEFAULT_DIFF_MAX_BYTES + 256 * 1024;
export const MAX_DIFFS = 100;
/** A warning is Gatehouse's own sentence, but it quotes the agent: bounded like the rest. */
export const WARNING_MESSAGE_MAX_CHARS = 500;
export const WARNING_WHERE_MAX_CHARS = 256;
/** Originals of cut parts kept as blobs per request; beyond it only their size and hash. */
export const STORED_ORIGINALS_MAX_BYTES = 16 * 1024 * 1024;

/** Requests of one session waiting for a person; a request beyond it is refused at once. */
export const MAX_PENDING_PER_SESSION = 256;
/** Summaries in one answer of listApprovals (oldest first, with the total count). */
export const LIST_MAX_ITEMS = 500;
/** Option names and ids are bounded by the contract (domain.ts); their number (20) where requests are parsed. */
export { OPTION_ID_MAX_CHARS, OPTION_NAME_MAX_CHARS } from '../../../shared/domain';
/** The bounds of a queue summary (title, command, paths, …) live with its schema. */
export { SUMMARY_LIMITS } from '../../../shared/domain';
