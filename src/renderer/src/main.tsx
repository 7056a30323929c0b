import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi, MissingTokenError } from './api';
import { ApiProvider } from './api/context';
import { HttpApi } from './api/http-client';
import { LinkPage } from './link/LinkPage';
import { App } from './App';
import { TokenRejected } from './connection/TokenRejected';
import { loadDiffDrawing } from './diff/load';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

// An approval link opens its one request and nothing else; its token never reaches storage.
const link = /^#\/link\/([A-Za-z0-9_-]+)$/.exec(window.location.hash);
if (link) {
  history.replaceState(null, '', `${window.location.pathname}#/link`);
  root.render(
    <StrictMode>
      <LinkPage api={new HttpApi(window.location.origin, link[1]!, 'Link')} />
    </StrictMode>,
  );
} else {
  void start();
}

function start() {
  return connectApi()
    .then((api) => {
      root.render(
        <StrictMode>
          <ApiProvider api={api}>
            <App />
          </ApiProvider>
        </StrictMode>,
      );
      // The diff's drawing once the first screen is up, so the first diff does not wait for it.
      const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1000));
      whenIdle(() => void loadDiffDrawing().catch(() => undefined));
    })
    .catch((error: unknown) => {
      if (error instanceof MissingTokenError)
        return root.render(<TokenRejected reason="missing" />);
      root.render(
        <main className="fatal" role="alert">
          <h1>Gatehouse cannot connect</h1>
          <p>{(error as Error).message}</p>
        </main>,
      );
    });
}
