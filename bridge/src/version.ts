import { version } from '../package.json';

export const BRIDGE_VERSION: string = version;
