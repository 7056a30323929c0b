// "You approved `npm test` in /x 20 times — make it a rule?": the core's suggestions from repeated
// person decisions, each one click from the rule editor.
import type { CommandOutput } from '../../../shared/contract';
import type { Rule } from '../../../shared/rules';
import { Button } from '../ui/Button';
import { Stack } from '../ui/Stack';
import './Suggestions.css';

export type Suggestion = CommandOutput<'suggestRules'>[number];

/** The message with its `code` spans drawn as code. */
function Message({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]*`)/)
        .map((part, i) =>
          part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : (
            part
          ),
        )}
    </>
  );
}

interface Props {
  suggestions: Suggestion[];
  onCreate(rule: Rule, message: string): void;
  onDismiss(ruleKey: string): void;
}

/** Stable across refreshes (the core makes a new id each time): what the rule says. */
export const suggestionKey = (s: Suggestion) =>
  JSON.stringify({ ...s.rule, id: '', createdAt: 0, reason: '' });

export function Suggestions({ suggestions, onCreate, onDismiss }: Props) {
  if (suggestions.length === 0) return null;
  return (
    <section className="hv-suggestions" aria-labelledby="hv-suggestions-title">
      <h2 id="hv-suggestions-title" className="visually-hidden">
        Suggested rules
      </h2>
      <Stack>
        {suggestions.slice(0, 3).map((s) => (
          <li key={suggestionKey(s)} className={`hv-suggestion ${s.rule.action}`}>
            <span className="hv-suggestion-icon" aria-hidden="true">
              ✦
            </span>
            <p>
              <Message text={s.message} /> — make it a rule?
            </p>
            <Button variant="primary" onClick={() => onCreate(s.rule, s.message)}>
              Make it a rule…
            </Button>
            <Button
              variant="ghost"
              aria-label={`Dismiss: ${s.message}`}
              onClick={() => onDismiss(suggestionKey(s))}
            >
              Not now
            </Button>
          </li>
        ))}
      </Stack>
      {suggestions.length > 3 && (
        <p className="dim hv-more-suggestions">and {suggestions.length - 3} more</p>
      )}
    </section>
  );
}
