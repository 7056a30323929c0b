import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { summarizeApproval } from '../../../shared/approval-summary';
import type { GrantChoice } from '../../../shared/contract';
import type { PendingApproval, PendingSummary } from '../../../shared/domain';
import { ApiError } from '../api/api-error';
import { useApi } from '../api/context';
import { canVote, useConnection } from '../connection/connection';
import { mergeRead, ReadClock } from '../connection/read-order';
import { whenStreamOpens } from '../connection/stream-open';
import { markReceived } from './perf';

/** What became of one vote, as the dialog tells it. */
export type VoteResult =
  { ok: true; kind: 'resolved' | 'recorded' | 'gone' } | { ok: false; message: string };

export interface ApprovalQueue {
  /** Pending requests in arrival order, minus those this client has just decided. */
  items: PendingSummary[];
  /** Requests waiting that the core did not list (its list is bounded); they come as others leave. */
  unlisted: number;
  /** The whole request (as the core bounds it), once known: from its event, or fetched. */
  details: ReadonlyMap<string, PendingApproval>;
  /** Fetches the whole request when only its summary is known (after a reload, say). */
  loadDetail(requestId: string): void;
  /** Consensus: the option this client voted for, while the request waits for other voters. */
  myVotes: ReadonlyMap<string, string>;
  /** `message`: the person's words, sent with a reject option only (the caller sees to it). */
  vote(
    requestId: string,
    optionId: string,
    grant?: GrantChoice,
    message?: string,
  ): Promise<VoteResult>;
  extend(requestId: string, seconds: number): Promise<VoteResult>;
  /** Records once per request that a person has seen it (the audit keeps it with a timeout). */
  markDisplayed(requestId: string): void;
  setAgentBypass(agentId: string): Promise<void>;
}

const FORBIDDEN: Record<string, string> = {
  designated_mismatch: 'another client is designated to decide this request',
  not_a_voter: 'this window is not one of the voters of this request',
  identity_unproven: 'this window could not prove its identity',
  remote_not_allowed: 'this policy only accepts votes from this machine',
  anonymous_not_allowed: 'this policy does not accept anonymous votes',
  already_voted: 'you have already voted on this request',
};

/**
 * The pending queue as the core sees it, kept live by events and re-read on every (re)connect.
 * The single source of queue state for the dialog, the tab badge and anything else that counts.
 * A request leaves `items` as soon as this client decides it (before the core confirms), and
 * comes back if the vote fails. The list holds summaries; the dialog shows the whole request,
 * which an event carries and which is fetched when only the summary is known.
 */
export function useApprovals(): ApprovalQueue {
  const api = useApi();
  const [approvals, setApprovals] = useState<PendingSummary[]>([]);
  const [unlisted, setUnlisted] = useState(0);
  const [details, setDetails] = useState<ReadonlyMap<string, PendingApproval>>(() => new Map());
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [myVotes, setMyVotes] = useState<ReadonlyMap<string, string>>(() => new Map());
  const displayed = useRef(new Set<string>());
  const loading = useRef(new Set<string>());
  const [clock] = useState(() => new ReadClock<Partial<PendingSummary>>());
  // Reads of one request out when the event stream (re)opened: events before it were not heard.
  const unheard = useRef(new Set<string>());
  const unlistedRef = useRef(0);
  // A vote is sent only while the core is heard from: one sent into silence may land after the
  // request was cancelled, or never, while the page said it was cast.
  const online = canVote(useConnection());
  const onlineRef = useRef(online);
  useEffect(() => {
    onlineRef.current = online;
  }, [online]);

  useEffect(() => {
    let alive = true;
    const refresh = () => {
      const read = clock.begin();
      api.call('listApprovals', {}).then(
        ({ items, total }) => {
          const heard = clock.end(read);
          if (!alive) return;
          setApprovals((held) => mergeRead(held, items, heard));
          unlistedRef.current = Math.max(0, total - items.length);
          setUnlisted(unlistedRef.current);
          // Requests decided here while the stream was down are gone from the list: forget them.
          const listed = new Map(items.map((a) => [a.requestId, a]));
          setHidden((set) => new Set([...set].filter((id) => heard.has(id) || listed.has(id))));
          // A request held whole that the list shows otherwise changed while no event was heard
          // (the stream was down, or not yet open): it is read again when next shown.
          setDetails(
            (map) =>
              new Map(
                [...map].filter(([id, approval]) => {
                  const summary = listed.get(id);
                  return heard.has(id) || (summary && agrees(summary, approval));
                }),
              ),
          );
        },
        () => clock.end(read),
      );
    };
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refreshSoon = () => {
      timer ??= setTimeout(() => {
        timer = null;
        refresh();
      }, 250);
    };
    const offEvents = api.subscribe((event) => {
      switch (event.type) {
        case 'permission_requested': {
          const { approval } = event;
          const summary = summarizeApproval(approval);
          clock.touch(approval.requestId, summary);
          markReceived(approval.requestId);
          setApprovals((list) =>
            list.some((a) => a.requestId === approval.requestId) ? list : [...list, summary],
          );
          setDetails((map) => new Map(map).set(approval.requestId, approval));
          break;
        }
        case 'permission_previewed': {
          // The same request with its preview started or finished: shown in place, never added.
          const { approval } = event;
          const summary = summarizeApproval(approval);
          clock.touch(approval.requestId, summary);
          setApprovals((list) =>
            list.map((a) => (a.requestId === approval.requestId ? summary : a)),
          );
          // The whole request: newer than any read of it still on its way.
          setDetails((map) => new Map(map).set(approval.requestId, approval));
          break;
        }
        case 'permission_resolved':
          clock.touch(event.requestId, null);
          setApprovals((list) => list.filter((a) => a.requestId !== event.requestId));
          // Requests the core did not list come in as others leave.
          if (unlistedRef.current > 0) refreshSoon();
          setDetails((map) => withoutKey(map, event.requestId));
          setHidden((set) => without(set, event.requestId));
          setMyVotes((map) => withoutKey(map, event.requestId));
          displayed.current.delete(event.requestId);
          break;
        case 'permission_partial_vote':
          clock.touch(event.requestId, { tally: event.tally });
          setApprovals((list) =>
            list.map((a) => (a.requestId === event.requestId ? { ...a, tally: event.tally } : a)),
          );
          setDetails((map) => patched(map, event.requestId, { tally: event.tally }));
          break;
        case 'permission_extended':
          clock.touch(event.requestId, { expiresAt: event.expiresAt });
          setApprovals((list) =>
            list.map((a) =>
              a.requestId === event.requestId ? { ...a, expiresAt: event.expiresAt } : a,
            ),
          );
          setDetails((map) => patched(map, event.requestId, { expiresAt: event.expiresAt }));
          break;
      }
    });
    const offConnection = whenStreamOpens(api, () => {
      for (const id of loading.current) unheard.current.add(id);
      refresh();
    });
    refresh();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
      offEvents();
      offConnection();
    };
  }, [api, clock]);

  const loadDetail = useCallback(
    (requestId: string) => {
      if (details.has(requestId) || loading.current.has(requestId)) return;
      loading.current.add(requestId);
      const fetchDetail = (): void => {
        const read = clock.begin();
        api.call('approvalDetail', { requestId }).then(
          (approval) => {
            // An event changed the request while this read was out, or the stream opened (what
            // came before was not heard): the answer may be older than what the page knows, so it
            // is read again (a request gone since answers "not found").
            const changed = clock.end(read).has(requestId);
            if (unheard.current.delete(requestId) || changed) return fetchDetail();
            loading.current.delete(requestId);
            setDetails((map) => new Map(map).set(requestId, approval));
          },
          () => {
            clock.end(read);
            unheard.current.delete(requestId);
            loading.current.delete(requestId);
          },
        );
      };
      fetchDetail();
    },
    [api, clock, details],
  );

  const vote = useCallback(
    async (
      requestId: string,
      optionId: string,
      grant?: GrantChoice,
      message?: string,
    ): Promise<VoteResult> => {
      if (!onlineRef.current)
        return { ok: false, message: 'Gatehouse is not answering: the vote was not sent.' };
      setHidden((set) => new Set(set).add(requestId));
      const restore = () => setHidden((set) => without(set, requestId));
      try {
        const outcome = await api.call('vote', {
          requestId,
          optionId,
          ...(grant ? { grant } : {}),
          ...(message ? { message } : {}),
        });
        switch (outcome.kind) {
          case 'resolved':
          case 'cancelled':
            return { ok: true, kind: 'resolved' };
          case 'already_resolved':
          case 'unknown_request':
            return { ok: true, kind: 'gone' };
          case 'recorded':
            // Consensus: the request still waits for others; it stays, marked with this vote.
            setMyVotes((map) => new Map(map).set(requestId, optionId));
            restore();
            return { ok: true, kind: 'recorded' };
          case 'forbidden':
            restore();
            return {
              ok: false,
              message: `Your vote was refused: ${FORBIDDEN[outcome.reason] ?? outcome.reason}.`,
            };
        }
      } catch (error) {
        restore();
        // The core read the vote and refused it (a prefix it cannot remember, say): the request
        // is still waiting, and the person is told why in the core's words.
        if (error instanceof ApiError && error.name === 'BadRequestError')
          return {
            ok: false,
            message: `Gatehouse refused this answer: ${error.message.replace(/\.$/, '')}. The request is still waiting.`,
          };
        return {
          ok: false,
          message: `Your vote did not reach Gatehouse: ${(error as Error).message}`,
        };
      }
    },
    [api],
  );

  const extend = useCallback(
    async (requestId: string, seconds: number): Promise<VoteResult> => {
      try {
        const { expiresAt } = await api.call('extendApproval', { requestId, seconds });
        setApprovals((list) =>
          list.map((a) => (a.requestId === requestId ? { ...a, expiresAt } : a)),
        );
        setDetails((map) => patched(map, requestId, { expiresAt }));
        return { ok: true, kind: 'recorded' };
      } catch (error) {
        return { ok: false, message: `Could not extend: ${(error as Error).message}` };
      }
    },
    [api],
  );

  const markDisplayed = useCallback(
    (requestId: string) => {
      if (displayed.current.has(requestId)) return;
      displayed.current.add(requestId);
      api.call('markDisplayed', { requestId }).catch(() => displayed.current.delete(requestId));
    },
    [api],
  );

  const setAgentBypass = useCallback(
    async (agentId: string) => {
      await api.call('setAgentBypass', { agentId, enabled: true });
    },
    [api],
  );

  const items = useMemo(
    () => approvals.filter((a) => !hidden.has(a.requestId)),
    [approvals, hidden],
  );
  return useMemo(
    () => ({
      items,
      unlisted,
      details,
      loadDetail,
      myVotes,
      vote,
      extend,
      markDisplayed,
      setAgentBypass,
    }),
    [items, unlisted, details, loadDetail, myVotes, vote, extend, markDisplayed, setAgentBypass],
  );
}

/** The parts of a pending request that change while it waits, the same in its summary. */
function agrees(summary: PendingSummary, approval: PendingApproval): boolean {
  const whole = summarizeApproval(approval);
  const state = (s: PendingSummary) =>
    JSON.stringify([s.effects, s.warnings, s.tally, s.expiresAt]);
  return state(summary) === state(whole);
}

function without(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (!set.has(id)) return set;
  const next = new Set(set);
  next.delete(id);
  return next;
}

function patched(
  map: ReadonlyMap<string, PendingApproval>,
  id: string,
  change: Partial<PendingApproval>,
): ReadonlyMap<string, PendingApproval> {
  const approval = map.get(id);
  return approval ? new Map(map).set(id, { ...approval, ...change }) : map;
}

function withoutKey<T>(map: ReadonlyMap<string, T>, id: string): ReadonlyMap<string, T> {
  if (!map.has(id)) return map;
  const next = new Map(map);
  next.delete(id);
  return next;
}
