// The version Gatehouse reports (health, the ACP handshake) is the one it is released under.
import { version } from '../../../package.json';

export const GATEHOUSE_VERSION: string = version;
