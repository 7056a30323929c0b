import { useEffect } from 'react';

const TITLE = 'Gatehouse';

/** The tab's title carries how many requests wait, so a tab in the background still tells. */
export function useTitleCount(waiting: number): void {
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) ${TITLE}` : TITLE;
  }, [waiting]);
  useEffect(
    () => () => {
      document.title = TITLE;
    },
    [],
  );
}
