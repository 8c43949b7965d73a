import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from './special-addresses.js';

/**
 * Server-side request forgery: a webhook URL is chosen by an account holder, so without a guard
 * they could make the server call its own loopback, the cloud metadata address or the private
 * network behind it. Every address is judged against the IANA special-purpose registries
 * (special-addresses.ts): anything not globally reachable is refused, IPv6 forms that carry an
 * IPv4 address are judged by that address, and what is not an IP address is refused.
 */
export function isForbiddenAddress(address: string): boolean {
  return classifyAddress(address.replace(/^\[|\]$/g, ''))?.reachable !== true;
}

export class ForbiddenTargetError extends Error {}

function refusal(host: string, address: string) {
  const range = classifyAddress(address)?.range ?? 'not an IP address';
  return new ForbiddenTargetError(
    `${host} resolves to ${address}, which is not globally reachable (${range}); webhooks may not target such addresses (WEBHOOK_ALLOW_PRIVATE=true allows them)`,
  );
}

/** Resolves a host name to every address it has. */
function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (e, addresses) => (e ? reject(e) : resolve(addresses))));
}

/**
 * Checks a target host before it is saved: an IP literal, or every address its name resolves to
 * (a name with one public and one private address is refused: either may be the one used).
 */
export async function assertPublicHost(host: string): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) {
    if (isForbiddenAddress(bare)) throw refusal(host, bare);
    return;
  }
  const addresses = await resolveAll(bare);
  for (const a of addresses) if (isForbiddenAddress(a.address)) throw refusal(host, a.address);
}

/**
 * A `lookup` for http.request, made from `lookup` (dns.lookup in production), that checks every
 * address at connection time, so a name that resolved to a public address when the webhook was
 * saved and now resolves to a private one (DNS rebinding) is refused when the delivery connects.
 */
export function guardLookup(lookup: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    const answer = callback as (e: Error | null, a: string | LookupAddress[], f?: number) => void;
    lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return answer(err, '', undefined);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address));
      if (bad || !list.length) return answer(bad ? refusal(hostname, bad.address) : new Error(`${hostname} has no address`), '', undefined);
      if ((options as { all?: boolean }).all) return answer(null, list);
      answer(null, list[0]!.address, list[0]!.family);
    });
  };
}

export const guardedLookup = guardLookup(dnsLookup);
