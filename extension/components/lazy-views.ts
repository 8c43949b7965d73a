/**
 * The popup's views loaded on demand (components/Lazy.tsx), in one chunk: the generator and
 * the push result as files of their own would cost another 0.5 KB gzipped (scripts/bundle-size.ts). Loading all of it for one view costs
 * a read of ~8 KB from the package on disk. Settings is the options page (OptionsApp.tsx).
 */
export { History } from './History';
export { Generator } from './Generator';
export { PushResult } from './PushResult';
export { ReconnectNotice } from './ConnectAction';
