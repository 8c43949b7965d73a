/**
 * The popup's views loaded on demand (components/Lazy.tsx), in one chunk: Settings and History
 * as two gzipped files cost 0.35 KB more than as one (scripts/bundle-size.ts).
 */
export { History } from './History';
export { SettingsView } from './Settings';
export { ReconnectNotice } from './ConnectAction';
