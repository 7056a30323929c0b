// Remembered "always" decisions: what each covers, where, until when; revoke one and it stops
// applying at once. Refreshed when a decision lands (a vote for an "always" option makes a grant),
// when the grants change, and whenever the event stream (re)opens.
import { useCallback, useEffect, useState } from 'react';
import type { CommandOutput } from '../../../shared/contract';
import { grantCommandText } from '../../../shared/grant-words';
import { useApi } from '../api/context';
import { useWhenStreamOpens } from '../connection/stream-open';
import { GrantWords } from '../components/GrantWords';
import { useNow } from '../components/use-now';
import { formatDateTime, relative } from '../history/words';
import { AsyncState } from '../ui/AsyncState';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Table } from '../ui/Table';
import { useAction } from '../ui/use-action';
import './GrantsSection.css';

type GrantView = CommandOutput<'listGrants'>[number];

/** A vote for an "always" option creates a grant; a closed session ends its grants. */
const CHANGES = new Set(['permission_resolved', 'session_state', 'grants_changed']);

export function GrantsSection() {
  const api = useApi();
  const now = useNow(15_000);
  const [showInactive, setShowInactive] = useState(false);
  const [grants, setGrants] = useState<GrantView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useAction(setError);

  const load = useCallback(() => {
    api.call('listGrants', { includeInactive: showInactive }).then(
      (list) => {
        setGrants(list);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, [api, showInactive]);
  useEffect(load, [load]);
  useWhenStreamOpens(api, load);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = api.subscribe((event) => {
      if (!CHANGES.has(event.type) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        load();
      }, 120);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [api, load]);

  const revoke = (grantId: string) =>
    run(grantId, async () => {
      await api.call('revokeGrant', { grantId });
      load();
    });

  const rows = (grants ?? []).map((g) => ({
    ...g,
    // Lapsed since the list was read: shown as expired without waiting for the next read.
    active: g.active && (g.grant.expiresAt === undefined || g.grant.expiresAt > now),
  }));

  return (
    <Card
      id="sv-grants"
      title="Grants"
      description={
        <>
          What someone allowed “always” in the approval dialog, scoped as they chose. A revoked
          grant stops applying at once: the next such request asks again.
        </>
      }
      actions={
        <label className="sv-toggle-label">
          <input
            type="checkbox"
            checked={showInactive}
            onChange={(e) => setShowInactive(e.target.checked)}
          />
          Show inactive
        </label>
      }
    >
      <AsyncState
        items={grants === null ? null : rows}
        error={error}
        loading="Loading…"
        empty={
          <>
            {showInactive ? 'No grants yet.' : 'No grants in force.'} Choose an “always” option in
            the approval dialog to make one.
          </>
        }
      >
        {(shown) => (
          <Table label="Grants" columns={['Agent', 'Allows', 'Created', 'Expires', 'Status']}>
            {shown.map(({ grant, active, revokeReason }) => {
              const covers = grant.commands
                ? grant.commands.map(grantCommandText)
                : (grant.paths ?? []);
              const expired = grant.expiresAt !== undefined && grant.expiresAt <= now;
              return (
                <tr
                  key={grant.id}
                  data-grant-id={grant.id}
                  className={active ? undefined : 'inactive'}
                >
                  <td>{grant.agentId}</td>
                  <td className="sv-covers">
                    <GrantWords grant={grant} />
                  </td>
                  <td>
                    <time
                      dateTime={new Date(grant.createdAt).toISOString()}
                      title={formatDateTime(grant.createdAt)}
                    >
                      {relative(grant.createdAt, now)}
                    </time>
                  </td>
                  <td>
                    {grant.expiresAt === undefined ? (
                      <span className="dim">
                        {grant.scope === 'session' ? 'with the session' : 'never'}
                      </span>
                    ) : (
                      <time
                        dateTime={new Date(grant.expiresAt).toISOString()}
                        title={formatDateTime(grant.expiresAt)}
                      >
                        {relative(grant.expiresAt, now)}
                      </time>
                    )}
                  </td>
                  <td>
                    {active ? (
                      <span className="sv-status active">Active</span>
                    ) : (
                      <span className="sv-status inactive" title={revokeReason ?? undefined}>
                        {grant.revokedAt !== undefined
                          ? 'Revoked'
                          : expired
                            ? 'Expired'
                            : 'Inactive'}
                        {revokeReason && (
                          <span className="sv-status-reason"> — {revokeReason}</span>
                        )}
                      </span>
                    )}
                  </td>
                  <td className="ui-table-actions">
                    {active && (
                      <Button
                        variant="danger"
                        disabled={busy === grant.id}
                        aria-label={`Revoke the grant for ${covers.join(', ')}`}
                        onClick={() => void revoke(grant.id)}
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </AsyncState>
    </Card>
  );
}
