import { createContext, useContext, type ReactNode } from 'react';
import type { GatehouseApi } from '../../../shared/contract';

const ApiContext = createContext<GatehouseApi | null>(null);

export function ApiProvider({ api, children }: { api: GatehouseApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): GatehouseApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiProvider');
  return api;
}
