import type { ReactNode } from 'react';
import './HistoryTool.css';

interface Props {
  /** How it went, in a line under the buttons; empty until the tool has run. */
  status: string;
  tone?: 'ok' | 'warn' | 'bad';
  testId?: string;
  children: ReactNode;
}

/** One of the history's head tools (export, audit check): its buttons, then what came of them. */
export function HistoryTool({ status, tone, testId, children }: Props) {
  return (
    <div className="hv-tool">
      {children}
      <p className={`hv-tool-status${tone ? ` ${tone}` : ''}`} role="status" data-testid={testId}>
        {status}
      </p>
    </div>
  );
}
