import { useEffect, useState } from 'react';
import { ApprovalDialog } from './approvals/ApprovalDialog';
import { useApprovals } from './approvals/use-approvals';
import { SessionView } from './sessions/SessionView';

type View = 'sessions' | 'approvals';

const viewOf = (hash: string): View => (hash.startsWith('#/approvals') ? 'approvals' : 'sessions');

export function App() {
  const approvals = useApprovals();
  const [view, setView] = useState<View>(() => viewOf(window.location.hash));

  useEffect(() => {
    const onHash = () => setView(viewOf(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return (
    <div className="app">
      <header className="topbar">
        <h1>Gatehouse</h1>
        <nav aria-label="views">
          <a href="#/sessions" aria-current={view === 'sessions' ? 'page' : undefined}>
            Sessions
          </a>
          <a href="#/approvals" aria-current={view === 'approvals' ? 'page' : undefined}>
            Approvals{approvals.length > 0 && <span className="count"> {approvals.length}</span>}
          </a>
        </nav>
      </header>
      <main>
        {view === 'sessions' && <SessionView />}
        {view === 'approvals' && approvals.length === 0 && <p className="hint">Nothing is waiting for you.</p>}
      </main>
      <ApprovalDialog approvals={approvals} />
    </div>
  );
}
