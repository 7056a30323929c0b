/**
 * The bash parser: web-tree-sitter + the tree-sitter-bash grammar, both as wasm (the grammar's
 * native addon is never built). Loading is async and happens once; parsing afterwards is
 * synchronous, which keeps `evaluate()` synchronous for the mediator's hot path.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

export interface ShellParserOptions {
  /** Override the grammar location (tests, unusual packaging). */
  grammarWasmPath?: string;
  /** Override the web-tree-sitter runtime wasm location. */
  runtimeWasmPath?: string;
}

/**
 * Load the runtime and grammar once. Safe to call many times and concurrently; a failed load can
 * be retried. Once loaded, later calls (and their options) are no-ops. Paths are resolved through Node module resolution relative to this file, so this
 * works from source and from a bundle that keeps node_modules external.
 */
export function initShellParser(options: ShellParserOptions = {}): Promise<void> {
  if (parser) return Promise.resolve();
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const runtimeWasm =
      options.runtimeWasmPath ?? require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    const grammarWasm =
      options.grammarWasmPath ?? require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    // locateFile: without it the runtime looks next to its own module URL, which breaks when a
    // bundler inlines web-tree-sitter.
    await Parser.init({ locateFile: () => runtimeWasm });
    const language = await Language.load(grammarWasm);
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export function isShellParserReady(): boolean {
  return parser !== null;
}

/**
 * Parse synchronously; the caller must `tree.delete()` (wasm memory is not garbage-collected).
 * Returns null when parsing is still running at `deadline` (a `performance.now()` time): some
 * malformed input (thousands of unterminated here-documents) takes tree-sitter's error recovery
 * seconds, and the main thread must not wait for it.
 */
export function parseShell(text: string, deadline = Infinity): Tree | null {
  if (!parser) {
    throw new Error(
      'Shell parser is not initialised: call `await initShellParser()` once at startup before analyzeCommand()/evaluate().',
    );
  }
  const options =
    deadline === Infinity ? undefined : { progressCallback: () => performance.now() > deadline };
  const tree = parser.parse(text, null, options);
  if (tree) return tree;
  if (deadline === Infinity) throw new Error('tree-sitter returned no tree');
  // A cancelled parse would otherwise resume with the next text.
  parser.reset();
  return null;
}
