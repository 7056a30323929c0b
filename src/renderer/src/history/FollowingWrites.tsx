// For an allowed edit: whether the write that followed was the content the request showed.
import type { FollowingWrite, HistoryDetail } from '../../../shared/history';
import { FileIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { Stack } from '../ui/Stack';
import { DetailSection } from './DetailSection';
import { formatDateTime, shortId } from './words';
import './FollowingWrites.css';

function Hash({ label, sha256 }: { label: string; sha256: string | null }) {
  if (!sha256) return null;
  return (
    <span className="dim">
      {label} <code title={sha256}>{shortId(sha256)}</code>
    </span>
  );
}

function WriteLine({ write }: { write: FollowingWrite }) {
  const written = write.outcome === 'written';
  return (
    <li className={`hv-write ${write.outcome}`}>
      <FileIcon />
      <code>
        <Revealed text={write.path} />
      </code>
      <span className={`hv-proof ${written ? 'proven' : 'unproven'}`}>
        {written ? 'written as approved' : 'refused'}
      </span>
      {!written && write.reason && <Revealed text={write.reason} />}
      <Hash label="sent" sha256={write.sha256} />
      <Hash label="approved" sha256={write.approvedSha256} />
      <span className="dim">{formatDateTime(write.at)}</span>
    </li>
  );
}

/** Shown for a request that allowed changes to files, or that a write referred to. */
export function FollowingWrites({ detail }: { detail: HistoryDetail }) {
  const allowedEdit =
    detail.reply.outcome === 'selected' &&
    detail.reply.optionKind.startsWith('allow') &&
    detail.diffs.length > 0;
  if (!allowedEdit && detail.writes.length === 0) return null;
  return (
    <DetailSection titleId="hv-writes-title" title="Writes that followed">
      {detail.writes.length === 0 ? (
        <p className="dim">No write through Gatehouse has used this approval.</p>
      ) : (
        <Stack className="hv-paths">
          {detail.writes.map((w, i) => (
            <WriteLine key={i} write={w} />
          ))}
        </Stack>
      )}
    </DetailSection>
  );
}
