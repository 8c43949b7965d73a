import { browser } from 'wxt/browser';
import { cleanDefaults, type PushDefaults } from './push-defaults';
import { checkServerUrl } from './server-address';

/**
 * What an organisation may set for the extension by policy: Chromium's managed storage (the
 * schema is extension/public/managed-schema.json; Chrome and Edge read the values from their
 * `3rdparty` policy), Firefox's `policies.json` (`3rdparty.Extensions.<add-on id>`). Examples
 * in deploy/policies/, how to deploy them in docs/extension-deployment.md.
 *
 * The default options use the API's field names (`expire_after_days`…), the same as the
 * user's own defaults. Loaded with the popup's first chunk, so it is kept small.
 */
export interface ManagedPolicy {
  /** The organisation's server. */
  serverUrl?: string;
  /** Whether the user may change the address (default: no, when `serverUrl` is set). */
  allowServerChange?: boolean;
  /** Defaults of new pushes, in force over the user's (changed for one push in the form). */
  pushDefaults?: PushDefaults;
  /** Whether URL pushes are offered (default: yes, when the server offers them). */
  offerUrlPushes?: boolean;
  /** Whether QR-code pushes are offered (default: yes, when the server offers them). */
  offerQrPushes?: boolean;
}

/**
 * Keeps only well-formed values. Firefox hands policies.json's values over unchecked (Chromium
 * checks them against the schema): a wrong type is dropped, never trusted, and an address the
 * extension would refuse from a user is refused from a policy too.
 */
export function cleanPolicy(value: unknown): ManagedPolicy {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const out: ManagedPolicy = {};
  const url = typeof v.serverUrl === 'string' ? checkServerUrl(v.serverUrl) : null;
  if (url?.ok) out.serverUrl = url.url;
  for (const key of ['allowServerChange', 'offerUrlPushes', 'offerQrPushes'] as const) if (typeof v[key] === 'boolean') out[key] = v[key];
  const defaults = cleanDefaults(v.pushDefaults);
  if (Object.keys(defaults).length > 0) out.pushDefaults = defaults;
  return out;
}

/**
 * The policy the browser holds for this extension; `{}` when there is none. Firefox rejects
 * the call when no policy names the add-on: that means no policy too.
 */
export const readManagedPolicy = (): Promise<ManagedPolicy> => browser.storage.managed.get(null).then(cleanPolicy, () => ({}));

/** Whether the address is the organisation's and cannot be changed here. */
export const serverLocked = (policy?: ManagedPolicy): boolean => Boolean(policy?.serverUrl) && policy?.allowServerChange !== true;

/** Whether the policy lets the extension offer pushes of `kind` (text and files always). */
export const kindAllowed = (kind: string, policy?: ManagedPolicy): boolean =>
  !((kind === 'url' && policy?.offerUrlPushes === false) || (kind === 'qr' && policy?.offerQrPushes === false));
