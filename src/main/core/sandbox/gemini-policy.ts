// Gemini CLI's own policy engine decides whether a tool call needs its client's permission. Its
// bundled policies allow read-only tools (read_file, list_directory, glob, grep_search, web search,
// subagents) outright, and its shell heuristics turn "ask" into "allow" for commands it deems safe
// (ls, cat, grep, head…), so those never reach Gatehouse. Started with this file as `--policy`, it
// asks Gatehouse for every call, and Gatehouse's rules decide what needs a person.
//
// Tiers (Gemini CLI 0.61, policy/config.js): a TOML priority p becomes tier + p/1000, the highest
// match wins. Bundled policies are tier 1, a `--policy` file tier 4 (user), only admin policies
// (tier 5: /etc/gemini-cli/policies, --admin-policy) rank higher. Its own "allow always" lands at
// 3.95, so even an "always" chosen in Gemini CLI itself would not stop it asking.

/** The file's name: Gemini CLI loads a `--policy` file only when it ends in `.toml`. */
export const GEMINI_POLICY_FILE_NAME = 'gatehouse-asks.toml';

/**
 * Tools that change only Gemini CLI's own state — its topic line, its task tracker, a subagent's
 * end — and touch no file, command or network. They stay allowed: Gemini calls update_topic at the
 * start of most tasks, and a question that can only be answered "yes" trains people to click yes.
 */
export const GEMINI_STATE_TOOLS: readonly string[] = [
  'update_topic',
  'complete_task',
  'tracker_create_task',
  'tracker_update_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_add_dependency',
  'tracker_visualize',
];

const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ');

/** The policy: every tool asks, in every approval mode, except Gemini's own state tools. */
export const GEMINI_POLICY = `# Written by Gatehouse for one launch of Gemini CLI: every tool call asks Gatehouse, its client,
# whose rules decide. User tier (--policy): outranks Gemini CLI's bundled policies.

# Shell commands. The argsPattern matters: for a rule without one, Gemini's shell heuristics turn
# ask_user into allow for commands they deem safe (ls, cat, grep, ...).
[[rule]]
toolName = "run_shell_command"
argsPattern = "."
decision = "ask_user"
priority = 999

# Tools that change only Gemini CLI's own state.
[[rule]]
toolName = [${quoted(GEMINI_STATE_TOOLS)}]
decision = "allow"
priority = 999

# Everything else, built-in, MCP or subagent.
[[rule]]
toolName = "*"
decision = "ask_user"
priority = 998
`;

/** Gemini CLI's arguments that load the policy at `path`. */
export function geminiPolicyArgs(path: string): string[] {
  // Gemini splits --policy values at commas (several files in one argument).
  if (path.includes(',')) {
    throw new Error(`Gemini CLI cannot load a policy from a path with a comma: ${path}`);
  }
  return ['--policy', path];
}
