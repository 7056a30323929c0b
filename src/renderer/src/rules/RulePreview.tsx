// The rule editor's live preview: the past requests a rule would have matched, asked again a moment
// after each change (the core reads up to 500 decisions for it).
import { useEffect, useId, useState } from 'react';
import type { CommandOutput } from '../../../shared/contract';
import type { Rule } from '../../../shared/rules';
import { useApi } from '../api/context';
import { KindBadge } from '../approvals/KindBadge';
import { Revealed } from '../components/Revealed';
import { DECISION_LABEL, decisionOf, formatDateTime } from '../history/words';
import { CapsHeading } from '../ui/CapsHeading';
import { Stack } from '../ui/Stack';
import './RulePreview.css';

type Preview = CommandOutput<'previewRule'>;
type Match = Preview['matches'][number]['match'];

const PREVIEW_DELAY_MS = 300;
const PREVIEW_SHOWN = 50;

const MATCH_LABEL: Record<Match, string> = {
  full: 'full',
  partial: 'partial',
  maybe: 'maybe',
};
const MATCH_HINT: Record<Match, string> = {
  full: 'the rule alone would have decided it',
  partial: 'the rule covers only part of it',
  maybe: 'the rule might match, depending on run-time values',
};

export function RulePreview({ rule }: { rule: Rule }) {
  const api = useApi();
  const uid = useId();
  const [preview, setPreview] = useState<{
    key: string;
    result: Preview | null;
    error: string | null;
  } | null>(null);
  // The preview does not depend on the id or the reason.
  const previewKey = JSON.stringify({
    ...rule,
    id: 'preview',
    reason: undefined,
    createdAt: undefined,
  });

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      const asked = JSON.parse(previewKey) as Rule;
      api.call('previewRule', { rule: asked, limit: 500 }).then(
        (result) => {
          if (!stale) setPreview({ key: previewKey, result, error: null });
        },
        (error: Error) => {
          if (!stale) setPreview({ key: previewKey, result: null, error: error.message });
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [api, previewKey]);

  const current = preview && preview.key === previewKey ? preview : null;

  return (
    <section
      className="re-preview"
      aria-labelledby={`${uid}-preview-title`}
      aria-busy={!current || undefined}
    >
      <CapsHeading id={`${uid}-preview-title`}>Would have matched</CapsHeading>
      <div role="status" className={`re-preview-status${current?.error ? ' re-warn' : ''}`}>
        {!current
          ? 'Checking past requests…'
          : current.error
            ? `Cannot preview this rule: ${current.error}`
            : current.result!.matches.length === 0
              ? `None of the last ${current.result!.scanned} decided requests.`
              : `${current.result!.matches.length} of the last ${current.result!.scanned} decided requests.`}
      </div>
      {current?.result && current.result.matches.length > 0 && (
        <Stack className="re-matches" aria-label="Matching past requests">
          {current.result.matches.slice(0, PREVIEW_SHOWN).map(({ item, match }) => {
            const decision = decisionOf(item.reply);
            return (
              <li key={item.requestId} data-request-id={item.requestId}>
                <span className={`re-match ${match}`} title={MATCH_HINT[match]}>
                  {MATCH_LABEL[match]}
                </span>
                <span className="re-match-title">
                  <Revealed text={item.commandText ?? item.title} />
                </span>
                <span className="re-match-meta">
                  <KindBadge kind={item.toolKind} />
                  <span className={`re-was ${decision}`}>
                    was {DECISION_LABEL[decision].toLowerCase()}
                  </span>
                  <span>{formatDateTime(item.decidedAt)}</span>
                </span>
              </li>
            );
          })}
          {current.result.matches.length > PREVIEW_SHOWN && (
            <li className="re-more">and {current.result.matches.length - PREVIEW_SHOWN} more</li>
          )}
        </Stack>
      )}
    </section>
  );
}
