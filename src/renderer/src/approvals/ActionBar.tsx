import type { PendingApproval, PermissionOption } from '../../../shared/domain';
import { revealInvisibles } from '../../../shared/invisible';
import { ShieldIcon } from '../components/icons';
import { GrantSentence } from '../components/GrantWords';
import {
  alwaysLabel,
  draftGrantParts,
  prefixChoices,
  prefixText,
  type GrantDraft,
  type GrantExpiry,
  type GrantScope,
} from './grant-draft';
import { ARIA } from './keyboard';
import { defaultOption, denyOption, hasDanger, orderedOptions } from './queue-order';
import { quorumOf } from './RequestDetails';
import './ActionBar.css';

const KIND_LABEL: Record<PermissionOption['kind'], string> = {
  allow_once: 'Allow once',
  allow_always: 'Allow always',
  reject_once: 'Reject',
  reject_always: 'Reject always',
};

interface Props {
  approval: PendingApproval;
  /** The click guard is over for this request. */
  armed: boolean;
  /** Every diff is on screen (allow buttons wait for it). */
  diffReady: boolean;
  myVote: string | undefined;
  grant: GrantDraft;
  onGrant: (grant: GrantDraft) => void;
  onDecide: (option: PermissionOption) => void;
  onBypass: () => void;
  /** The reason box is open on this request. */
  reasonOpen: boolean;
  onReason: () => void;
}

/** One button per option the agent offered, in its words, grouped allow / reject. */
export function ActionBar({
  approval,
  armed,
  diffReady,
  myVote,
  grant,
  onGrant,
  onDecide,
  onBypass,
  reasonOpen,
  onReason,
}: Props) {
  const options = orderedOptions(approval);
  const focus = defaultOption(approval);
  const danger = hasDanger(approval);
  const hasAlways = options.some((o) => o.kind === 'allow_always');
  const canAllow = options.some((o) => o.kind === 'allow_once' || o.kind === 'allow_always');
  const voted = myVote !== undefined;
  const offer = approval.command?.prefix;
  const prefixes = prefixChoices(offer);
  const sentence = draftGrantParts(approval, grant);
  // A reason goes with a reject only: an agent that offers none is refused by a cancel, which
  // carries no words.
  const canReason = denyOption(approval) !== undefined && !voted;
  const guardText = voted
    ? 'You have voted on this request.'
    : !armed
      ? 'Take a look first — the buttons unlock in a moment.'
      : !diffReady
        ? 'Allow unlocks once the diff is drawn.'
        : '';
  const numbered = options.map((option, i) => ({ option, n: i + 1 }));
  const group = (kinds: PermissionOption['kind'][]) =>
    numbered.filter(({ option }) => kinds.includes(option.kind));

  const button = ({ option, n }: { option: PermissionOption; n: number }) => {
    const allow = option.kind.startsWith('allow');
    const enabled = armed && !voted && (!allow || diffReady);
    const isDefault = focus?.optionId === option.optionId;
    const votes = approval.tally ? (approval.tally.perOption[option.optionId] ?? 0) : null;
    return (
      <button
        key={option.optionId}
        type="button"
        className={`gh-option kind-${option.kind}${isDefault ? ' emphasis' : ''}`}
        data-kind={option.kind}
        data-default-option={isDefault ? 'true' : undefined}
        aria-disabled={enabled ? undefined : 'true'}
        aria-describedby={guardText ? 'gh-guard-text' : undefined}
        aria-keyshortcuts={n <= 9 ? String(n) : undefined}
        onClick={() => enabled && onDecide(option)}
      >
        <span className="gh-option-label">
          {option.kind === 'allow_always'
            ? alwaysLabel(grant, approval.agentName)
            : option.name.trim() || KIND_LABEL[option.kind]}
        </span>
        {votes !== null && (
          <span className="gh-option-votes">
            {votes}/{quorumOf(approval.tally!)}
          </span>
        )}
        {n <= 9 && <kbd aria-hidden="true">{n}</kbd>}
      </button>
    );
  };

  return (
    <footer className={`gh-actions${armed ? '' : ' guarded'}${danger ? ' danger' : ''}`}>
      <div className="gh-guard-bar" aria-hidden="true" />
      {hasAlways && (
        <div className="gh-grant" role="group" aria-label="How far “always” reaches">
          {offer && prefixes.length > 0 && (
            <label>
              <span>Always covers</span>
              {/* Widest last: each step down drops one word, never below what the core accepts. */}
              <select
                className="gh-prefix"
                value={grant.prefixWords ?? ''}
                onChange={(e) =>
                  onGrant({
                    ...grant,
                    prefixWords: e.target.value === '' ? null : Number(e.target.value),
                  })
                }
              >
                <option value="">this exact command</option>
                {prefixes.map((n) => (
                  <option key={n} value={n}>
                    {revealInvisibles(prefixText(offer, n), { lineBreaks: 'reveal' })}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            <span>Always applies to</span>
            <select
              value={grant.scope}
              onChange={(e) => onGrant({ ...grant, scope: e.target.value as GrantScope })}
            >
              <option value="session">this session</option>
              <option value="project">this project folder</option>
              <option value="agent">{approval.agentName} everywhere</option>
            </select>
          </label>
          <label>
            <span>for</span>
            <select
              value={grant.expiry}
              onChange={(e) => onGrant({ ...grant, expiry: e.target.value as GrantExpiry })}
            >
              <option value="">
                {grant.scope === 'session' ? 'as long as the session' : 'until revoked'}
              </option>
              <option value="30">30 minutes</option>
              <option value="60">1 hour</option>
              <option value="480">8 hours</option>
              <option value="tomorrow">until tomorrow</option>
            </select>
          </label>
          {sentence && (
            <p className="gh-grant-words" aria-live="polite">
              “Always” will <GrantSentence parts={sentence} />
            </p>
          )}
        </div>
      )}
      <div className="gh-actions-row">
        {canAllow && (
          <button
            type="button"
            className="gh-bypass"
            onClick={onBypass}
            aria-haspopup="dialog"
            aria-keyshortcuts={ARIA.bypass}
            disabled={voted}
          >
            <ShieldIcon />
            <span className="gh-bypass-text">Bypass for this agent…</span>
          </button>
        )}
        <p
          id="gh-guard-text"
          className="gh-guard-text"
          aria-live="polite"
          title={guardText || undefined}
        >
          {guardText}
        </p>
        <div className="gh-option-groups">
          {group(['allow_once', 'allow_always']).length > 0 && (
            <div className="gh-option-group allow" role="group" aria-label="Allow">
              {group(['allow_once', 'allow_always']).map(button)}
            </div>
          )}
          {group(['reject_once', 'reject_always']).length > 0 && (
            <div className="gh-option-group reject" role="group" aria-label="Reject">
              {group(['reject_once', 'reject_always']).map(button)}
            </div>
          )}
          {/* Beside the agent's options, not among them: it is Gatehouse's, not the agent's. */}
          {canReason && (
            <button
              type="button"
              className="gh-reason-toggle"
              aria-expanded={reasonOpen}
              aria-controls={reasonOpen ? 'gh-reason-input' : undefined}
              aria-keyshortcuts={ARIA.reason}
              onClick={onReason}
            >
              With a reason…<kbd aria-hidden="true">R</kbd>
            </button>
          )}
        </div>
      </div>
    </footer>
  );
}
