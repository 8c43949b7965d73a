/**
 * The popup's views loaded on demand (components/Lazy.tsx), in one chunk: Settings and History
 * as two gzipped files cost 0.35 KB more than as one, and the generator and the push result as
 * two more files another 0.5 KB (scripts/bundle-size.ts). Loading all of it for one view costs
 * a read of ~10 KB from the package on disk.
 */
export { History } from './History';
export { Generator } from './Generator';
export { PushResult } from './PushResult';
export { SettingsView } from './Settings';
export { ReconnectNotice } from './ConnectAction';
