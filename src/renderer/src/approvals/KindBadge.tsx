import type { ToolKind } from '../../../shared/domain';
import './KindBadge.css';

const LABEL: Record<ToolKind, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Mode',
  other: 'Tool',
};

export const KIND_VERB: Record<ToolKind, string> = {
  read: 'read files',
  edit: 'edit files',
  delete: 'delete files',
  move: 'move files',
  search: 'search',
  execute: 'run a command',
  think: 'think',
  fetch: 'fetch from the network',
  switch_mode: 'switch mode',
  other: 'use a tool',
};

export function KindBadge({ kind, question }: { kind: ToolKind; question?: boolean }) {
  if (question)
    return (
      <span className="gh-kind kind-question" title="The agent asks a question">
        Question
      </span>
    );
  return (
    <span className={`gh-kind kind-${kind}`} title={`Tool kind: ${kind}`}>
      {LABEL[kind]}
    </span>
  );
}
