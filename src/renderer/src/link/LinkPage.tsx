import { useEffect, useState } from 'react';
import { REJECT_MESSAGE_MAX, type VoteOutcome } from '../../../shared/contract';
import type { PendingApproval, PermissionOption } from '../../../shared/domain';
import type { HttpApi } from '../api/http-client';
import { Revealed } from '../components/Revealed';
import { CommandBlock } from '../approvals/CommandBlock';
import { KindBadge } from '../approvals/KindBadge';
import { reasonCounter } from '../approvals/reject-reason';
import { WarningList } from '../approvals/WarningList';
import { DiffList } from '../diff/DiffList';
import { useDiffMode } from '../diff/use-diff-mode';
import { Button } from '../ui/Button';
import './LinkPage.css';

type State =
  | { kind: 'loading' }
  | { kind: 'shown'; approval: PendingApproval }
  | { kind: 'done'; outcome: VoteOutcome; option: PermissionOption }
  | { kind: 'gone'; message: string };

const isAllow = (o: PermissionOption) => o.kind === 'allow_once' || o.kind === 'allow_always';

/**
 * What an approval link opens (on a phone, for a colleague): the one request it is bound to, and
 * its options. The link is spent by the first vote; "always" options are not offered here.
 */
export function LinkPage({ api }: { api: HttpApi }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  const [diffMode] = useDiffMode();

  useEffect(() => {
    api
      .call('linkedApproval', {})
      .then((approval) => setState({ kind: 'shown', approval }))
      .catch(() =>
        setState({
          kind: 'gone',
          message: 'This link has been used, has expired, or its request was decided.',
        }),
      );
  }, [api]);

  if (state.kind === 'loading') return <main className="link-page" aria-busy="true" />;
  if (state.kind === 'gone') {
    return (
      <main className="link-page">
        <h1>Approval link</h1>
        <p role="status">{state.message}</p>
      </main>
    );
  }
  if (state.kind === 'done') {
    return (
      <main className="link-page">
        <h1>Approval link</h1>
        <p role="status">
          {state.outcome.kind === 'resolved' || state.outcome.kind === 'recorded'
            ? `Your answer “${state.option.name}” was sent.`
            : `Your answer was not counted (${state.outcome.kind}${'reason' in state.outcome ? `: ${state.outcome.reason}` : ''}).`}
        </p>
      </main>
    );
  }

  const { approval } = state;
  const options = approval.options.filter((o) => o.kind !== 'allow_always');
  const canReason = options.some((o) => !isAllow(o));
  const vote = async (option: PermissionOption) => {
    setBusy(true);
    // The words go with a reject only; an allow never carries them.
    const message = isAllow(option) ? '' : reason.trim();
    try {
      const outcome = await api.call('voteByLink', {
        optionId: option.optionId,
        ...(message ? { message } : {}),
      });
      setState({ kind: 'done', outcome, option });
    } catch (error) {
      setState({ kind: 'gone', message: (error as Error).message });
    }
  };
  return (
    <main className="link-page" aria-labelledby="link-title">
      <p className="link-brand">Gatehouse · approval link</p>
      <p className="link-meta">
        <KindBadge kind={approval.toolCall.kind} /> <strong>{approval.agentName}</strong> asks, in{' '}
        <code>{approval.cwd}</code>
      </p>
      <h1 id="link-title">
        <Revealed text={approval.toolCall.title} />
      </h1>
      <WarningList warnings={approval.warnings} />
      {approval.command && <CommandBlock command={approval.command} sessionCwd={approval.cwd} />}
      {approval.diffs.length > 0 && <DiffList diffs={approval.diffs} mode={diffMode} />}
      {canReason && (
        <div className="link-reason">
          <label htmlFor="link-reason">
            Tell the agent what to do instead{' '}
            <span className="dim">(optional, sent with a reject)</span>
          </label>
          <textarea
            id="link-reason"
            rows={2}
            value={reason}
            maxLength={REJECT_MESSAGE_MAX}
            disabled={busy}
            onChange={(e) => setReason(e.target.value)}
          />
          {reasonCounter(reason) && (
            <span className="link-reason-count" aria-live="polite">
              {reasonCounter(reason)}
            </span>
          )}
        </div>
      )}
      <div className="link-actions" role="group" aria-label="Your answer">
        {options.map((option) => (
          <Button
            key={option.optionId}
            variant={isAllow(option) ? 'allow' : undefined}
            className={isAllow(option) ? undefined : 'link-reject'}
            disabled={busy}
            onClick={() => void vote(option)}
          >
            {option.name}
          </Button>
        ))}
      </div>
      <p className="link-note">This link works once, for this request only.</p>
    </main>
  );
}
