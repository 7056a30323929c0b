// The shape check every message from an agent passes before Gatehouse looks inside it. JSON.parse
// accepts any nesting, but JSON.stringify, zod and the safety layer recurse: a request nested a few
// thousand levels deep would overflow the stack in the middle of the pipeline, unaudited.

export interface JsonLimits {
  /** Nesting of arrays and objects. */
  maxDepth: number;
  /** Values in all (every array element, object member and scalar counts one). */
  maxNodes: number;
  /** UTF-8 bytes of all strings and object keys together: close to the encoded size. */
  maxStringBytes: number;
}

/**
 * Far beyond any real agent's message: ACP's own shapes nest less than ten levels, tool inputs a
 * few more; a file written whole is the largest string an agent sends (diffs of larger files are
 * not shown either, see DEFAULT_DIFF_MAX_BYTES).
 */
export const AGENT_JSON_LIMITS: JsonLimits = {
  maxDepth: 64,
  maxNodes: 500_000,
  maxStringBytes: 32 * 1024 * 1024,
};

export interface JsonProblem {
  problem: 'too_deep' | 'too_many_values' | 'too_large';
  limit: number;
  /** Where the limit was crossed, cut to a readable length. */
  at: string;
}

const MAX_PATH_CHARS = 200;

/**
 * The first limit `value` crosses, or null. Walks iteratively (an explicit stack, no recursion) and
 * stops at the first problem, so a hostile value costs at most the limits to look at.
 */
export function checkJsonShape(
  value: unknown,
  limits: JsonLimits = AGENT_JSON_LIMITS,
): JsonProblem | null {
  // Each entry: a value, its depth, and the entry index of its parent (paths are rebuilt on demand).
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const keys: string[] = ['$'];
  const parents: number[] = [-1];
  const stack: number[] = [0];
  let nodes = 0;
  let bytes = 0;
  const problem = (kind: JsonProblem['problem'], limit: number, index: number): JsonProblem => ({
    problem: kind,
    limit,
    at: pathOf(index, keys, parents),
  });
  while (stack.length > 0) {
    const index = stack.pop()!;
    const current = values[index];
    nodes += 1;
    if (nodes > limits.maxNodes) return problem('too_many_values', limits.maxNodes, index);
    if (typeof current === 'string') {
      bytes += Buffer.byteLength(current, 'utf8');
      if (bytes > limits.maxStringBytes) return problem('too_large', limits.maxStringBytes, index);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const depth = depths[index]! + 1;
    if (depth > limits.maxDepth) return problem('too_deep', limits.maxDepth, index);
    const isArray = Array.isArray(current);
    const names = isArray ? null : Object.keys(current);
    const count = isArray ? current.length : names!.length;
    // Counted before anything is queued, so a huge array costs nothing to refuse.
    if (nodes + stack.length + count > limits.maxNodes)
      return problem('too_many_values', limits.maxNodes, index);
    for (let i = 0; i < count; i++) {
      let key: string;
      let child: unknown;
      if (isArray) {
        key = `[${i}]`;
        child = current[i];
      } else {
        const name = names![i]!;
        bytes += Buffer.byteLength(name, 'utf8');
        if (bytes > limits.maxStringBytes)
          return problem('too_large', limits.maxStringBytes, index);
        key = `.${name}`;
        child = (current as Record<string, unknown>)[name];
      }
      values.push(child);
      depths.push(depth);
      keys.push(key);
      parents.push(index);
      stack.push(values.length - 1);
    }
  }
  return null;
}

/** "$.toolCall.rawInput.a.a…(63 more)" — the start of the path, bounded. */
function pathOf(index: number, keys: string[], parents: number[]): string {
  const parts: string[] = [];
  for (let i = index; i >= 0; i = parents[i]!) parts.push(keys[i]!);
  parts.reverse();
  let path = '';
  for (let i = 0; i < parts.length; i++) {
    if (path.length + parts[i]!.length > MAX_PATH_CHARS)
      return `${path}…(${parts.length - i} more)`;
    path += parts[i];
  }
  return path;
}

/** One line for the agent and the audit: what was crossed and where, never the payload. */
export function describeJsonProblem(problem: JsonProblem): string {
  switch (problem.problem) {
    case 'too_deep':
      return `nested deeper than ${problem.limit} levels at ${problem.at}`;
    case 'too_many_values':
      return `more than ${problem.limit} values (at ${problem.at})`;
    case 'too_large':
      return `more than ${problem.limit} bytes of text (at ${problem.at})`;
  }
}
