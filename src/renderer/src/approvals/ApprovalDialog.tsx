// The approval dialog: one request at a time, the queue beside it, every action on the keyboard.
// Runs as a modal over the sessions page (browser) and as the whole #/approvals view (the
// Electron dialog window); `useApprovals` owns the queue, this component only what is on screen.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { GrantChoice } from '../../../shared/contract';
import type { PendingSummary, PermissionOption } from '../../../shared/domain';
import {
  ChevronLeft,
  ChevronRight,
  ExternalIcon,
  KeyboardIcon,
  ShieldIcon,
} from '../components/icons';
import { useApi } from '../api/context';
import { useNow } from '../components/use-now';
import { warmDiffWorker } from '../diff/diff-engine';
import { useDiffMode } from '../diff/use-diff-mode';
import { ActionBar, BypassConfirm, DEFAULT_GRANT, grantOf, type GrantDraft } from './ActionBar';
import { ARIA, actionOf, isTypingTarget } from './keyboard';
import { markArmed, markReady } from './perf';
import { QueueList } from './QueueList';
import { approveOption, denyOption, likeThis, orderQueue, orderedOptions } from './queue-order';
import { RequestDetails } from './RequestDetails';
import { ShortcutHelp } from './ShortcutHelp';
import type { ApprovalQueue, VoteResult } from './use-approvals';
import './ApprovalDialog.css';

/** Clicks and keys are ignored this long after a request appears (a click aimed at the last one). */
export const GUARD_MS = 600;
const EXTEND_SECONDS = 300;

/** True until `ms` after `key` last changed. */
function useGuard(key: string, ms: number): boolean {
  const [released, setReleased] = useState<string | null>(null);
  useEffect(() => {
    if (!key) return;
    const timer = setTimeout(() => setReleased(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return released !== key;
}

interface Status {
  tone: 'info' | 'error';
  text: string;
}

const hasDanger = (a: PendingSummary) => a.warnings.some((w) => w.severity === 'danger');

function without(set: ReadonlySet<string>, ids: Iterable<string>): ReadonlySet<string> {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
}

export function ApprovalDialog({
  queue,
  variant,
}: {
  queue: ApprovalQueue;
  variant: 'modal' | 'page';
}) {
  const now = useNow(1000);
  const ordered = useMemo(() => orderQueue(queue.items, now), [queue.items, now]);

  // The request on screen stays put by id while the queue reorders around it; when it leaves,
  // the one that takes its place in the list is shown.
  const [cursor, setCursor] = useState<{ id: string | null; index: number }>({
    id: null,
    index: 0,
  });
  const found = ordered.findIndex((a) => a.requestId === cursor.id);
  const index = found >= 0 ? found : Math.min(cursor.index, ordered.length - 1);
  const current: PendingSummary | null = index >= 0 ? (ordered[index] ?? null) : null;
  if (current && (cursor.id !== current.requestId || cursor.index !== index)) {
    setCursor({ id: current.requestId, index });
  }
  const currentId = current?.requestId ?? '';
  // The list holds summaries; the request on screen is shown whole, fetched if no event brought it.
  const detail = current ? queue.details.get(current.requestId) : undefined;
  const loaded = detail !== undefined;
  const { loadDetail } = queue;
  useEffect(() => {
    if (currentId && !detail) loadDetail(currentId);
  }, [currentId, detail, loadDetail]);

  // The guard runs from the moment the request can be read, not from when its summary was listed.
  const guarded = useGuard(loaded ? currentId : '', GUARD_MS);
  const [readyId, setReadyId] = useState<string | null>(null);
  const diffReady = !current || (!!detail && (detail.diffs.length === 0 || readyId === currentId));
  const myVote = current ? queue.myVotes.get(current.requestId) : undefined;

  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const liveSelected = useMemo(
    () => new Set(ordered.filter((a) => selected.has(a.requestId)).map((a) => a.requestId)),
    [ordered, selected],
  );
  const [batchConfirm, setBatchConfirm] = useState<'approve' | 'deny' | null>(null);
  const api = useApi();
  const [status, setStatus] = useState<Status | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [bypassFor, setBypassFor] = useState<string | null>(null);
  const bypassOpen = !!current && bypassFor === currentId;
  const bypassGuarded = useGuard(bypassOpen ? `bypass:${currentId}` : '', GUARD_MS);
  const [grantState, setGrantState] = useState<{ id: string; draft: GrantDraft } | null>(null);
  const grant = grantState?.id === currentId ? grantState.draft : DEFAULT_GRANT;
  const [diffMode, setDiffMode] = useDiffMode();
  const rootRef = useRef<HTMLElement>(null);
  const hasDiffs = (detail?.diffs.length ?? 0) > 0;
  useEffect(() => {
    if (hasDiffs) warmDiffWorker();
  }, [hasDiffs]);

  // The audit records whether a person ever saw a request: only when it is on a visible screen.
  const { markDisplayed } = queue;
  useEffect(() => {
    if (!currentId) return;
    const mark = () => {
      if (document.visibilityState === 'visible') markDisplayed(currentId);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [currentId, markDisplayed]);

  useEffect(() => {
    if (currentId && diffReady) markReady(currentId);
  }, [currentId, diffReady]);
  useEffect(() => {
    if (currentId && diffReady && !guarded) markArmed(currentId);
  }, [currentId, diffReady, guarded]);

  // A new request on screen takes the focus (its safe default), unless the person is busy elsewhere;
  // so does one the person jumps to from the queue, once it is loaded.
  const [focusTick, setFocusTick] = useState(0);
  useEffect(() => {
    const root = rootRef.current;
    if (!root || !currentId) return;
    const active = document.activeElement;
    if (active && active !== document.body && !root.contains(active)) return;
    const target = root.querySelector<HTMLElement>('[data-default-option]') ?? root;
    target.focus({ preventScroll: true });
  }, [currentId, focusTick, loaded]);

  const report = (result: VoteResult, decided: PendingSummary) => {
    if (!result.ok) setStatus({ tone: 'error', text: result.message });
    else if (result.kind === 'recorded')
      setStatus({ tone: 'info', text: 'Vote recorded; waiting for the other voters.' });
    else if (result.kind === 'gone')
      setStatus({ tone: 'info', text: `“${decided.title}” was already decided.` });
  };

  /** Moves the cursor past `leaving` to what takes their place, before the votes are sent. */
  const advancePast = (leaving: ReadonlySet<string>) => {
    if (!current || !leaving.has(current.requestId)) return;
    const rest = ordered.filter((a) => !leaving.has(a.requestId));
    const at = Math.max(0, Math.min(index, rest.length - 1));
    setCursor({ id: rest[at]?.requestId ?? null, index: at });
  };

  const decide = async (a: PendingSummary, option: PermissionOption, grantChoice?: GrantChoice) => {
    const at = ordered.findIndex((x) => x.requestId === a.requestId);
    advancePast(new Set([a.requestId]));
    setSelected((s) => without(s, [a.requestId]));
    setStatus(null);
    const result = await queue.vote(a.requestId, option.optionId, grantChoice);
    if (!result.ok) setCursor({ id: a.requestId, index: Math.max(0, at) });
    report(result, a);
  };

  const canUse = (option: PermissionOption) =>
    !guarded && myVote === undefined && (!option.kind.startsWith('allow') || diffReady);

  const choose = (option: PermissionOption | undefined) => {
    if (!current || !option || !canUse(option)) return;
    void decide(current, option, option.kind === 'allow_always' ? grantOf(grant) : undefined);
  };

  const confirmBypass = async () => {
    if (!current || bypassGuarded) return;
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

  const runBatch = async (kind: 'approve' | 'deny') => {
    const targets = ordered.filter(
      (a) => liveSelected.has(a.requestId) && !queue.myVotes.has(a.requestId),
    );
    if (targets.length === 0) return;
    if (kind === 'approve' && batchConfirm !== 'approve' && targets.some(hasDanger)) {
      setBatchConfirm('approve');
      return;
    }
    setBatchConfirm(null);
    const plan = targets.map((a) => ({
      a,
      option: kind === 'approve' ? approveOption(a) : denyOption(a),
    }));
    const doable = plan.filter(
      (p): p is { a: PendingSummary; option: PermissionOption } => !!p.option,
    );
    const ids = new Set(doable.map((p) => p.a.requestId));
    advancePast(ids);
    setSelected((s) => without(s, ids));
    setStatus(null);
    // One vote per request: each is decided, audited and answered on its own.
    for (const p of doable) markDisplayed(p.a.requestId);
    const results = await Promise.all(
      doable.map((p) => queue.vote(p.a.requestId, p.option.optionId)),
    );
    const failed = results.filter((r): r is Extract<VoteResult, { ok: false }> => !r.ok);
    const skipped = plan.length - doable.length;
    const done = results.length - failed.length;
    const verb = kind === 'approve' ? 'Approved' : 'Denied';
    const parts = [`${verb} ${done} request${done === 1 ? '' : 's'}.`];
    if (skipped > 0) {
      parts.push(
        `${skipped} skipped: the agent offered no ${kind === 'approve' ? 'allow-once' : 'reject'} option.`,
      );
    }
    if (failed.length > 0) parts.push(`${failed.length} failed: ${failed[0]!.message}`);
    setStatus({ tone: failed.length > 0 ? 'error' : 'info', text: parts.join(' ') });
  };

  const go = (delta: number) => {
    if (ordered.length === 0) return;
    const at = (index + delta + ordered.length) % ordered.length;
    setCursor({ id: ordered[at]!.requestId, index: at });
  };
  const jump = (requestId: string) => {
    const at = ordered.findIndex((a) => a.requestId === requestId);
    if (at < 0) return;
    setCursor({ id: requestId, index: at });
    setFocusTick((n) => n + 1);
  };
  const toggle = (requestId: string) => {
    setBatchConfirm(null);
    setSelected((s) => (s.has(requestId) ? without(s, [requestId]) : new Set(s).add(requestId)));
  };
  const like = current ? likeThis(ordered, current) : [];
  const selectLike = () => {
    setBatchConfirm(null);
    setSelected((s) => new Set([...s, ...like.map((a) => a.requestId)]));
  };
  // Remote approval: a single-use link bound to this request (only meaningful over HTTP).
  const copyLink = async () => {
    if (!current) return;
    try {
      const link = await api.call('createApprovalLink', { requestId: current.requestId });
      const url = `${window.location.origin}${link.path}`;
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
    if (!current) return;
    const result = await queue.extend(current.requestId, EXTEND_SECONDS);
    if (!result.ok) setStatus({ tone: 'error', text: result.message });
  };

  // Keys: the handler is rebuilt each render (it reads current state) and called through a ref.
  const onKey = (event: KeyboardEvent) => {
    const root = rootRef.current;
    if (!root || event.defaultPrevented || isTypingTarget(event.target)) return;
    const target = event.target instanceof Node ? event.target : null;
    const inside = !!target && root.contains(target);
    // Over the sessions page only keys typed in the dialog count; the dialog window also takes
    // keys that reach the page itself.
    if (!inside && (variant === 'modal' || target !== document.body)) return;
    if (event.key === 'Escape') {
      if (bypassOpen) setBypassFor(null);
      else if (batchConfirm) setBatchConfirm(null);
      else if (helpOpen) setHelpOpen(false);
      return;
    }
    if (bypassOpen) return;
    const hit = actionOf(event);
    if (!hit) return;
    event.preventDefault();
    if (hit.action === 'help') return setHelpOpen((open) => !open);
    if (!current) return;
    switch (hit.action) {
      case 'option':
        return choose(orderedOptions(current)[hit.index ?? -1]);
      case 'allow':
        return choose(approveOption(current));
      case 'deny':
        return choose(denyOption(current));
      case 'next':
        return go(1);
      case 'previous':
        return go(-1);
      case 'toggle-select':
        return toggle(current.requestId);
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
  };
  const keyHandler = useRef(onKey);
  useEffect(() => {
    keyHandler.current = onKey;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keyHandler.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

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
      <div className="gh-topbar">
        <span className="gh-brand" id="gh-dialog-label">
          <ShieldIcon /> Permission request
        </span>
        <span className="gh-position" role="status" aria-label="Queue position">
          {index + 1} of {ordered.length}
        </span>
        <span className="gh-nav">
          <button
            type="button"
            aria-label="Previous request"
            aria-keyshortcuts={ARIA.previous}
            onClick={() => go(-1)}
          >
            <ChevronLeft />
          </button>
          <button
            type="button"
            aria-label="Next request"
            aria-keyshortcuts={ARIA.next}
            onClick={() => go(1)}
          >
            <ChevronRight />
          </button>
        </span>
        <span className="gh-spacer" />
        {api.surface === 'browser' && current && (
          <button type="button" className="gh-help-toggle" onClick={() => void copyLink()}>
            <ExternalIcon /> Copy approval link
          </button>
        )}
        <button
          type="button"
          className="gh-help-toggle"
          aria-expanded={helpOpen}
          aria-controls="gh-shortcuts"
          aria-keyshortcuts={ARIA.help}
          onClick={() => setHelpOpen((open) => !open)}
        >
          <KeyboardIcon /> Shortcuts
        </button>
        {variant === 'modal' && (
          <a className="gh-open-full" href="#/approvals">
            <ExternalIcon /> Full view
          </a>
        )}
      </div>
      <div className="gh-layout">
        <QueueList
          ordered={ordered}
          unlisted={queue.unlisted}
          currentId={currentId}
          now={now}
          selected={liveSelected}
          myVotes={queue.myVotes}
          likeCount={like.length}
          likeLabel={
            current.command !== null ? 'program' : current.paths.length > 0 ? 'folder' : 'title'
          }
          batchConfirm={batchConfirm}
          onJump={jump}
          onToggle={toggle}
          onSelectLike={selectLike}
          onBatch={(kind) => void runBatch(kind)}
          onBatchCancel={() => setBatchConfirm(null)}
          onClear={() => {
            setBatchConfirm(null);
            setSelected(new Set());
          }}
        />
        <div className="gh-main">
          {helpOpen && <ShortcutHelp onClose={() => setHelpOpen(false)} />}
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
          <div className="gh-status-line" role="status">
            {status?.tone === 'info' && <p className="gh-status info">{status.text}</p>}
          </div>
          {status?.tone === 'error' && (
            <p className="gh-status error" role="alert">
              {status.text}
            </p>
          )}
          {!detail ? null : bypassOpen ? (
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
            />
          )}
          <p className="gh-hints" aria-hidden="true">
            <kbd>1</kbd>–<kbd>{Math.min(9, current.options.length)}</kbd> choose · <kbd>A</kbd>{' '}
            allow once · <kbd>D</kbd> deny · <kbd>J</kbd>/<kbd>K</kbd> next/previous · <kbd>X</kbd>{' '}
            select · <kbd>?</kbd> all shortcuts
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
