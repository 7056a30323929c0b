// What the server needs once it routes a request by the contract: loaded when the first request
// other than /api/health while the core starts needs it, not before the listen, as building the
// contract's schemas costs more than anything else the server does to listen.
export {
  CLIENT_ID_HEADER,
  CLIENT_TOKEN_HEADER,
  ClientId,
  commands,
  HISTORY_EXPORT_PATH,
  LINK_AUTH_SCHEME,
} from '../../shared/contract';
export { dispatch } from '../core';
export { matchRoute } from './routes';
export { HistoryExports } from './history-export';
