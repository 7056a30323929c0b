import { useEffect, useState } from 'react';
import { useApi } from './api/context';
import { ApprovalDialog } from './approvals/ApprovalDialog';
import { useApprovals } from './approvals/use-approvals';
import { HistoryView } from './history/HistoryView';
import { HomeView } from './home/HomeView';
import { SessionView, sessionOfHash } from './sessions/SessionView';
import { SettingsView } from './settings/SettingsView';
import { Count } from './ui/Count';
import { ConnectionBanner } from './connection/ConnectionBanner';
import { ConnectionContext, useConnectionOf } from './connection/connection';
import { TokenRejected } from './connection/TokenRejected';
import { useTitleCount } from './connection/use-title-count';
import { NotificationOffer, notificationsOn } from './notify/NotificationOffer';
import { useBrowserNotifications } from './notify/use-browser-notifications';
import './App.css';

type View = 'home' | 'sessions' | 'approvals' | 'history' | 'settings';

/** The views in the order the bar shows them, with their addresses. */
const VIEWS: [View, string, string][] = [
  ['home', '#/', 'Home'],
  ['sessions', '#/sessions', 'Sessions'],
  ['approvals', '#/approvals', 'Approvals'],
  ['history', '#/history', 'History'],
  ['settings', '#/settings', 'Settings'],
];

const viewOf = (hash: string): View =>
  hash.startsWith('#/approvals')
    ? 'approvals'
    : hash.startsWith('#/history')
      ? 'history'
      : hash.startsWith('#/settings')
        ? 'settings'
        : hash.startsWith('#/sessions')
          ? 'sessions'
          : 'home';

export function App() {
  const api = useApi();
  const connection = useConnectionOf(api);
  return (
    <ConnectionContext.Provider value={connection}>
      {connection.state === 'unauthorized' ? <TokenRejected reason="refused" /> : <Views />}
    </ConnectionContext.Provider>
  );
}

function Views() {
  const api = useApi();
  const approvals = useApprovals();
  const [hash, setHash] = useState(() => window.location.hash);
  const view = viewOf(hash);
  const pending = approvals.items.length;
  // The requests waiting when the person chose Later: the dialog stays aside until another arrives.
  const [setAside, setSetAside] = useState<ReadonlySet<string>>(new Set());
  const unseen = approvals.items.some((a) => !setAside.has(a.requestId));
  // Over home and the sessions the dialog is modal: the page behind it takes no input meanwhile.
  const overlaid = (view === 'home' || view === 'sessions') && unseen;
  const modal = overlaid && pending > 0;
  useTitleCount(pending + approvals.unlisted);
  // Notifications are a paired device's: its votes are a person's, so are its buttons'.
  const mayNotify = api.surface === 'browser' && api.paired;
  const [notifying, setNotifying] = useState(notificationsOn);
  useBrowserNotifications(approvals, mayNotify && notifying);

  useEffect(() => {
    const onHash = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return (
    <div className="app">
      <ConnectionBanner />
      <header className="topbar" inert={modal}>
        <h1>Gatehouse</h1>
        <nav aria-label="views">
          {VIEWS.map(([id, href, label]) => (
            <a key={id} href={href} aria-current={view === id ? 'page' : undefined}>
              {label}
              {id === 'approvals' && pending > 0 && <Count> {pending}</Count>}
            </a>
          ))}
        </nav>
      </header>
      {!api.paired && (
        <p className="unpaired" role="note">
          This browser is not paired: its votes count only under first-responder. To pair it, open
          the address Gatehouse printed at start, or a link from Settings → Devices → Pair another
          device on a paired browser.
        </p>
      )}
      {mayNotify && <NotificationOffer onAnswered={() => setNotifying(notificationsOn())} />}
      <main className={view === 'approvals' ? 'wide' : undefined} inert={modal}>
        {view === 'home' && <HomeView queue={approvals} />}
        {view === 'sessions' && <SessionView selected={sessionOfHash(hash)} />}
        {view === 'approvals' && <ApprovalDialog queue={approvals} variant="page" />}
        {view === 'history' && <HistoryView />}
        {view === 'settings' && <SettingsView />}
      </main>
      {overlaid && (
        <ApprovalDialog
          queue={approvals}
          variant="modal"
          onSetAside={() => setSetAside(new Set(approvals.items.map((a) => a.requestId)))}
        />
      )}
    </div>
  );
}
