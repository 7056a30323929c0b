// Performance marks for the dialog benchmark (bench/dialog.ts) and for anyone profiling: when a
// request reached this page, when it was drawn (diff included), when its buttons took clicks.
export const MARKS = {
  received: 'gatehouse:approval-received',
  ready: 'gatehouse:approval-ready',
  armed: 'gatehouse:approval-armed',
} as const;

/** Marks kept per name; older ones are dropped so a long-running window does not grow. */
const KEEP = 200;

function mark(name: string, requestId: string): void {
  try {
    if (performance.getEntriesByName(name, 'mark').length >= KEEP) performance.clearMarks(name);
    performance.mark(name, { detail: requestId });
  } catch {
    // marks are diagnostics only
  }
}

export const markReceived = (requestId: string) => mark(MARKS.received, requestId);
export const markReady = (requestId: string) => mark(MARKS.ready, requestId);
export const markArmed = (requestId: string) => mark(MARKS.armed, requestId);
