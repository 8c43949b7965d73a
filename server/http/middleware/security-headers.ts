import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Headers on every response: no indexing, no sniffing, no framing, a strict CSP (pages use only
 * same-origin CSS and scripts), and no caching: nearly every response either holds a secret or
 * tells whether one exists (static assets set their own Cache-Control).
 */
const policy = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  referrerPolicy: 'no-referrer',
  crossOriginResourcePolicy: 'same-origin',
  xFrameOptions: 'DENY',
  // Headers for browsers long gone (IE8 downloads, Flash policies, the removed XSS auditor).
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

const extra: [string, string][] = [
  ['X-Robots-Tag', 'noindex, nofollow'],
  ['Cache-Control', 'no-store'],
];

/**
 * Hono's secureHeaders decides the header set, computed once here: applying it per request
 * after the handler (as secureHeaders does) makes every response rebuild its headers.
 * requestFrame sets them before the handler, where a handler's own value (a static asset's
 * Cache-Control) still overrides them.
 */
export async function securityHeaderSet(): Promise<[string, string][]> {
  const probe = new Hono().use(policy).get('/', (c) => c.body(null, 204));
  const res = await probe.request('/');
  const out: [string, string][] = [];
  res.headers.forEach((value, name) => out.push([name, value]));
  return [...out, ...extra];
}

/**
 * The policy of the end-to-end recipient page: the same, plus same-origin frames. Its script
 * starts a streamed download by opening the save worker's one-shot address in a hidden frame
 * (pages/browser/e2e-save-worker.ts); every answer of the server itself still refuses to be
 * framed (frame-ancestors 'none', X-Frame-Options), so only the worker's download can load there.
 */
export async function policyWithSameOriginFrames(): Promise<string> {
  const policy = (await securityHeaderSet()).find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
  if (!policy) throw new Error('the security headers have no Content-Security-Policy');
  return `${policy}; frame-src 'self'`;
}

/**
 * The policy of the extension's connect page (pages/extension-connect-routes.tsx): the same,
 * with its form allowed on to the extension's redirect origin, where the answer redirects the
 * browser (browsers apply form-action to a form's redirects too).
 */
export async function policyWithFormAction(origin: string): Promise<string> {
  const policy = (await securityHeaderSet()).find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
  if (!policy) throw new Error('the security headers have no Content-Security-Policy');
  return policy.replace(/form-action 'self'/, `form-action 'self' ${origin}`);
}
