// The approval dialog: one request at a time, the queue beside it, every action on the keyboard.
// Runs as a modal over the sessions page (browser) and as the whole #/approvals view (the
// Electron dialog window); `useApprovals` owns the queue, this component only what is on screen.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { GrantChoice } from '../../../shared/contract';
import type { PendingSummary, PermissionOption } from '../../../shared/domain';
import { ShieldIcon } from '../components/icons';
import { useApi } from '../api/context';
import { canVote, useConnection } from '../connection/connection';
import { useFrozenNow } from '../connection/use-frozen-now';
import { VotesWhileOnline } from '../connection/VotesWhileOnline';
import { warmDiffDrawing } from '../diff/load';
import { useDiffMode } from '../diff/use-diff-mode';
import { ActionBar } from './ActionBar';
import { batchReport, planBatch, type BatchKind } from './batch';
import { BypassConfirm } from './BypassConfirm';
import { DialogTopBar } from './DialogTopBar';
import { DEFAULT_GRANT, grantOf, type GrantDraft } from './grant-draft';
import { markArmed, markReady } from './perf';
import { QuestionSection } from './QuestionSection';
import { QueueList } from './QueueList';
import {
  approveOption,
  denyOption,
  hasDanger,
  likeThis,
  orderQueue,
  orderedOptions,
} from './queue-order';
import { RejectReason } from './RejectReason';
import { reasonToSend } from './reject-reason';
import { RequestDetails } from './RequestDetails';
import { ShortcutHelp } from './ShortcutHelp';
import type { ApprovalQueue, VoteResult } from './use-approvals';
import { useBatchSelection } from './use-batch-selection';
import { useDialogKeys } from './use-dialog-keys';
import { useGuard } from './use-guard';
import { useOnScreen } from './use-on-screen';
import { useQueueCursor } from './use-queue-cursor';
import { useRejectReason } from './use-reject-reason';
import './ApprovalDialog.css';

const EXTEND_SECONDS = 300;

interface Status {
  tone: 'info' | 'error';
  text: string;
}

export function ApprovalDialog({
  queue,
  variant,
  onSetAside,
}: {
  queue: ApprovalQueue;
  variant: 'modal' | 'page';
  /** Over a page: set the dialog aside until a new request arrives (Later, or Escape). */
  onSetAside?: () => void;
}) {
  // While the core is not heard from, the clock stops where it was last heard and nothing is voted.
  const now = useFrozenNow(1000);
  const online = canVote(useConnection());
  const ordered = useMemo(() => orderQueue(queue.items, now), [queue.items, now]);
  const { index, current, moveTo, go, advancePast } = useQueueCursor(ordered);
  const currentId = current?.requestId ?? '';
  // The list holds summaries; the request on screen is shown whole, fetched if no event brought it.
  const detail = current ? queue.details.get(current.requestId) : undefined;
  const loaded = detail !== undefined;
  const { loadDetail } = queue;
  useEffect(() => {
    if (currentId && !detail) loadDetail(currentId);
  }, [currentId, detail, loadDetail]);

  // The guard runs from the moment the request can be read, not from when its summary was listed;
  // it runs again when a danger warning appears later (a preview that finished), so a click or key
  // aimed at the request as it was does not allow what it turned out to be.
  const danger = !!detail && hasDanger(detail);
  const guarded = useGuard(loaded ? `${currentId}${danger ? ':danger' : ''}` : '');
  const [readyId, setReadyId] = useState<string | null>(null);
  const diffReady = !current || (!!detail && (detail.diffs.length === 0 || readyId === currentId));
  const myVote = current ? queue.myVotes.get(current.requestId) : undefined;

  const batch = useBatchSelection(ordered);
  const api = useApi();
  const [status, setStatus] = useState<Status | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [bypassFor, setBypassFor] = useState<string | null>(null);
  const bypassOpen = !!current && bypassFor === currentId;
  const bypassGuarded = useGuard(bypassOpen ? `bypass:${currentId}` : '');
  const [grantState, setGrantState] = useState<{ id: string; draft: GrantDraft } | null>(null);
  const grant = grantState?.id === currentId ? grantState.draft : DEFAULT_GRANT;
  const [diffMode, setDiffMode] = useDiffMode();
  const rootRef = useRef<HTMLElement>(null);
  const reason = useRejectReason(rootRef, current, myVote !== undefined);
  const hasDiffs = (detail?.diffs.length ?? 0) > 0;
  useEffect(() => {
    if (hasDiffs) warmDiffDrawing();
  }, [hasDiffs]);

  const refocus = useOnScreen(rootRef, currentId, { loaded, danger }, queue.markDisplayed);

  useEffect(() => {
    if (currentId && diffReady) markReady(currentId);
  }, [currentId, diffReady]);
  useEffect(() => {
    if (currentId && diffReady && !guarded) markArmed(currentId);
  }, [currentId, diffReady, guarded]);

  const report = (result: VoteResult, decided: PendingSummary) => {
    if (!result.ok) setStatus({ tone: 'error', text: result.message });
    else if (result.kind === 'recorded')
      setStatus({ tone: 'info', text: 'Vote recorded; waiting for the other voters.' });
    else if (result.kind === 'gone')
      setStatus({ tone: 'info', text: `“${decided.title}” was already decided.` });
  };

  const decide = async (
    a: PendingSummary,
    option: PermissionOption,
    grantChoice?: GrantChoice,
    message?: string,
  ) => {
    const at = ordered.findIndex((x) => x.requestId === a.requestId);
    advancePast(new Set([a.requestId]));
    batch.remove([a.requestId]);
    setStatus(null);
    const result = await queue.vote(a.requestId, option.optionId, grantChoice, message);
    if (!result.ok) moveTo(a.requestId, Math.max(0, at));
    // The words stay with their request until a vote carrying them is taken.
    else if (message !== undefined) reason.sent(a.requestId);
    report(result, a);
  };

  const canUse = (option: PermissionOption) =>
    online && !guarded && myVote === undefined && (!option.kind.startsWith('allow') || diffReady);

  const choose = (option: PermissionOption | undefined) => {
    if (!current || !option || !canUse(option)) return;
    // A question is accepted with its form's values, from its own buttons; a key only declines.
    if (detail?.question && option.kind !== 'reject_once') return;
    void decide(
      current,
      option,
      option.kind === 'allow_always' ? grantOf(grant) : undefined,
      reasonToSend(reason.box, currentId, option),
    );
  };

  const confirmBypass = async () => {
    if (!current || bypassGuarded || !online) return;
    const a = current;
    const option = approveOption(a) ?? a.options.find((o) => o.kind === 'allow_always');
    setBypassFor(null);
    if (!option) return;
    try {
      await queue.setAgentBypass(a.agentId);
    } catch (error) {
      setStatus({
        tone: 'error',
        text: `Bypass was not saved (${(error as Error).message}); the request is still waiting.`,
      });
      return;
    }
    await decide(a, option);
    setStatus({
      tone: 'info',
      text: `${a.agentName} is trusted now: its requests are allowed without asking. Turn it off in settings.`,
    });
  };

  const runBatch = async (kind: BatchKind) => {
    if (!online) return;
    const targets = ordered.filter(
      (a) => batch.selected.has(a.requestId) && !queue.myVotes.has(a.requestId),
    );
    if (targets.length === 0) return;
    if (kind === 'approve' && batch.confirm !== 'approve' && targets.some(hasDanger)) {
      batch.setConfirm('approve');
      return;
    }
    batch.setConfirm(null);
    const { votes, skipped } = planBatch(targets, kind);
    const ids = new Set(votes.map((v) => v.a.requestId));
    advancePast(ids);
    batch.remove(ids);
    setStatus(null);
    for (const v of votes) queue.markDisplayed(v.a.requestId);
    const results = await Promise.all(
      votes.map((v) => queue.vote(v.a.requestId, v.option.optionId)),
    );
    const failures = results.flatMap((r) => (r.ok ? [] : [r.message]));
    setStatus(batchReport(kind, results.length - failures.length, skipped, failures));
  };

  const jump = (requestId: string) => {
    const at = ordered.findIndex((a) => a.requestId === requestId);
    if (at < 0) return;
    moveTo(requestId, at);
    refocus();
  };
  const like = current ? likeThis(ordered, current) : [];
  const selectLike = () => batch.add(like.map((a) => a.requestId));
  // Remote approval: a single-use link bound to this request (only meaningful over HTTP).
  const copyLink = async () => {
    if (!current) return;
    try {
      const link = await api.call('createApprovalLink', { requestId: current.requestId });
      // Served on the network, the link names the address another device opens.
      const served = await api.call('serverAddress', {}).catch(() => null);
      const url = `${served?.networkUrls[0] ?? window.location.origin}${link.path}`;
      await navigator.clipboard.writeText(url).catch(() => {});
      setStatus({
        tone: 'info',
        text: `Link copied: ${url} — it works once, for this request only.`,
      });
    } catch (error) {
      setStatus({ tone: 'error', text: (error as Error).message });
    }
  };

  const extend = async () => {
    if (!current || !online) return;
    const result = await queue.extend(current.requestId, EXTEND_SECONDS);
    if (!result.ok) setStatus({ tone: 'error', text: result.message });
  };

  useDialogKeys(rootRef, {
    variant,
    blocked: bypassOpen,
    escape() {
      if (bypassOpen) setBypassFor(null);
      else if (batch.confirm) batch.setConfirm(null);
      else if (helpOpen) setHelpOpen(false);
      else onSetAside?.();
    },
    action(hit) {
      if (hit.action === 'help') return setHelpOpen((open) => !open);
      if (!current) return;
      switch (hit.action) {
        case 'option':
          return choose(orderedOptions(current)[hit.index ?? -1]);
        case 'allow':
          return choose(approveOption(current));
        case 'deny':
          return choose(denyOption(current));
        case 'reason':
          // A question's decline carries no words.
          return detail?.question ? undefined : reason.show();
        case 'next':
          return go(1);
        case 'previous':
          return go(-1);
        case 'toggle-select':
          return batch.toggle(current.requestId);
        case 'select-like':
          return selectLike();
        case 'batch-approve':
          return void runBatch('approve');
        case 'batch-deny':
          return void runBatch('deny');
        case 'extend':
          return void extend();
        case 'diff-mode':
          return setDiffMode(diffMode === 'unified' ? 'split' : 'unified');
        case 'bypass':
          if (current.options.some((o) => o.kind.startsWith('allow')) && myVote === undefined)
            setBypassFor(currentId);
          return;
      }
    },
  });

  if (!current) {
    if (variant === 'modal') return null;
    return (
      <section className="gh-approvals page empty" aria-label="Permission requests">
        <div className="gh-empty">
          <ShieldIcon />
          <h2>Nothing is waiting for you</h2>
          <p>When an agent asks to edit a file or run a command, the request shows up here.</p>
          {status && <p className={`gh-status ${status.tone}`}>{status.text}</p>}
        </div>
      </section>
    );
  }

  const titleId = 'gh-request-title';
  const content = (
    <>
      <DialogTopBar
        index={index}
        total={ordered.length}
        onGo={go}
        onCopyLink={
          api.surface === 'browser' && !detail?.question ? () => void copyLink() : undefined
        }
        helpOpen={helpOpen}
        onToggleHelp={() => setHelpOpen((open) => !open)}
        variant={variant}
        onSetAside={onSetAside}
      />
      <div className="gh-layout">
        <QueueList
          ordered={ordered}
          unlisted={queue.unlisted}
          currentId={currentId}
          now={now}
          selected={batch.selected}
          myVotes={queue.myVotes}
          likeCount={like.length}
          likeLabel={
            current.command !== null ? 'program' : current.paths.length > 0 ? 'folder' : 'title'
          }
          batchConfirm={batch.confirm}
          onJump={jump}
          onToggle={batch.toggle}
          onSelectLike={selectLike}
          onBatch={(kind) => void runBatch(kind)}
          onBatchCancel={() => batch.setConfirm(null)}
          onClear={batch.clear}
        />
        <div className="gh-main">
          {helpOpen && <ShortcutHelp onClose={() => setHelpOpen(false)} />}
          {detail?.question ? (
            <QuestionSection
              key={currentId}
              approval={{ ...detail, question: detail.question }}
              titleId={titleId}
              armed={online && !guarded && myVote === undefined}
              onStatus={(tone, text) => setStatus({ tone, text })}
              onAnswered={() => advancePast(new Set([currentId]))}
            />
          ) : (
            <div className="gh-scroll">
              {detail ? (
                <RequestDetails
                  key={currentId}
                  approval={detail}
                  titleId={titleId}
                  now={now}
                  diffMode={diffMode}
                  onDiffMode={setDiffMode}
                  onDiffsReady={() => setReadyId(currentId)}
                  onExtend={() => void extend()}
                  myVote={myVote}
                />
              ) : (
                <p className="dim" id={titleId} role="status">
                  Loading the request…
                </p>
              )}
            </div>
          )}
          <div className="gh-status-line" role="status">
            {status?.tone === 'info' && <p className="gh-status info">{status.text}</p>}
          </div>
          {status?.tone === 'error' && (
            <p className="gh-status error" role="alert">
              {status.text}
            </p>
          )}
          <VotesWhileOnline>
            {!detail || detail.question ? null : bypassOpen ? (
              <BypassConfirm
                approval={detail}
                armed={!bypassGuarded}
                onConfirm={() => void confirmBypass()}
                onCancel={() => setBypassFor(null)}
              />
            ) : (
              <ActionBar
                key={currentId}
                approval={detail}
                armed={!guarded}
                diffReady={diffReady}
                myVote={myVote}
                grant={grant}
                onGrant={(draft) => setGrantState({ id: currentId, draft })}
                onDecide={(option) => choose(option)}
                onBypass={() => setBypassFor(currentId)}
                reasonOpen={reason.open}
                onReason={() => (reason.open ? reason.close() : reason.show())}
              />
            )}
            {/* Kept while the next request loads: the focus must not fall out of the box. */}
            {!bypassOpen && reason.box && reason.shown && (
              <RejectReason
                inputRef={reason.inputRef}
                text={reason.box.text}
                stale={reason.stale}
                option={denyOption(current)}
                canUse={canUse}
                onText={reason.setText}
                onSubmit={choose}
                onClose={reason.close}
                onFocusChange={reason.focused}
              />
            )}
          </VotesWhileOnline>
          <p className="gh-hints" aria-hidden="true" hidden={!!detail?.question}>
            <kbd>1</kbd>–<kbd>{Math.min(9, current.options.length)}</kbd> choose · <kbd>A</kbd>{' '}
            allow once · <kbd>D</kbd> deny · <kbd>R</kbd> deny with a reason · <kbd>J</kbd>/
            <kbd>K</kbd> next/previous · <kbd>X</kbd> select · <kbd>?</kbd> all shortcuts
          </p>
        </div>
      </div>
    </>
  );

  if (variant === 'page') {
    return (
      <section
        ref={rootRef}
        className="gh-approvals page"
        aria-labelledby={`gh-dialog-label ${titleId}`}
        tabIndex={-1}
      >
        {content}
      </section>
    );
  }
  return (
    <div className="gh-backdrop">
      <div
        ref={rootRef as RefObject<HTMLDivElement>}
        className="gh-approvals modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`gh-dialog-label ${titleId}`}
        tabIndex={-1}
      >
        {content}
      </div>
    </div>
  );
}
