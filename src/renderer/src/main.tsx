import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi } from './api';
import { ApiProvider } from './api/context';
import { App } from './App';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

connectApi()
  .then((api) =>
    root.render(
      <StrictMode>
        <ApiProvider api={api}>
          <App />
        </ApiProvider>
      </StrictMode>,
    ),
  )
  .catch((error: unknown) => {
    root.render(
      <main className="fatal" role="alert">
        <h1>Gatehouse cannot connect</h1>
        <p>{(error as Error).message}</p>
      </main>,
    );
  });
