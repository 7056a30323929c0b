// The diff's drawing (CodeMirror, its merge view and languages, the diff engine) is half the
// page's code and only a request with a change needs it: it loads apart, once, when the first diff
// is drawn or the dialog is about to draw one, and the first screen does not wait for it.
import type * as Drawing from './mount-diff';

let loading: Promise<typeof Drawing> | null = null;

export function loadDiffDrawing(): Promise<typeof Drawing> {
  loading ??= import('./mount-diff').catch((error: unknown) => {
    // Not held: the next diff asks again (the diff it was for says it could not be drawn).
    loading = null;
    throw error;
  });
  return loading;
}

/** Loads the drawing and starts the diff worker ahead of a diff that is about to be shown. */
export function warmDiffDrawing(): void {
  loadDiffDrawing()
    .then(({ warmDiffWorker }) => warmDiffWorker())
    .catch(() => undefined);
}
