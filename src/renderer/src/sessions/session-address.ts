// Where a session is shown: its own address, so that a reload or a link opens it again.

/** The session a `#/sessions/<id>` address opens. */
export const sessionOfHash = (hash: string): string | null => {
  const match = /^#\/sessions\/(.+)$/.exec(hash);
  return match ? decodeURIComponent(match[1]!) : null;
};

export const openSession = (sessionId: string) => {
  window.location.hash = `#/sessions/${encodeURIComponent(sessionId)}`;
};
