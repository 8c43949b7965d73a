import { browser } from 'wxt/browser';

/**
 * Why a request failed, in the browser's own words. A page's fetch only says "Failed to fetch"
 * for a server that is down and for a certificate the browser does not trust alike; the
 * `webRequest` permission lets the extension read the real reason (Chromium
 * `net::ERR_CERT_AUTHORITY_INVALID`, Firefox "The certificate is not trusted because it is
 * self-signed.") for the hosts it may reach, which is only the user's server. Observing only:
 * nothing is blocked or changed. The permission is optional, and Firefox's only: held from the
 * user's "Find out why" until the reason is shown (components/ProblemNotice.tsx). Without it (and
 * always in Chromium, see wxt.config.ts) there is no reason.
 */
interface ErrorEvents {
  addListener(listener: (details: { url: string; error: string }) => void, filter: { urls: string[] }): void;
  removeListener(listener: (details: { url: string; error: string }) => void): void;
}

/** Starts listening for network errors of requests to `url`'s host; `reason()` waits for one briefly. */
export function watchNetError(url: string): { reason(): Promise<string | undefined>; stop(): void } {
  // Chromium's build has no webRequest (wxt.config.ts): nothing of this is shipped there.
  if (!import.meta.env.FIREFOX) return { reason: async () => undefined, stop: () => undefined };
  const events = (browser as unknown as { webRequest?: { onErrorOccurred?: ErrorEvents } }).webRequest?.onErrorOccurred;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { reason: async () => undefined, stop: () => undefined };
  }
  if (!events) return { reason: async () => undefined, stop: () => undefined };
  let seen: string | undefined;
  let wake: (() => void) | undefined;
  const listener = (details: { url: string; error: string }) => {
    if (!details.url.startsWith(target.origin)) return;
    seen = details.error;
    wake?.();
  };
  try {
    events.addListener(listener, { urls: [`${target.protocol}//${target.hostname}/*`] });
  } catch {
    return { reason: async () => undefined, stop: () => undefined };
  }
  const stop = () => events.removeListener(listener);
  return {
    stop,
    // The event and fetch's rejection travel separately; the event comes within milliseconds.
    reason: () =>
      seen !== undefined
        ? Promise.resolve(seen)
        : new Promise((done) => {
            const timer = setTimeout(() => done(seen), 500);
            wake = () => {
              clearTimeout(timer);
              done(seen);
            };
          }),
  };
}

/** A certificate or TLS failure, as either browser words it. */
export function isTlsError(reason: string | undefined): boolean {
  return reason !== undefined && /CERT|SSL|TLS|SEC_ERROR|PKIX|certificate/i.test(reason);
}
