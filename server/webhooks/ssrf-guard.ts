import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Server-side request forgery: a webhook URL is chosen by an account holder, so without a guard
 * they could make the server call its own loopback, the cloud metadata address or the private
 * network behind it. Refused: loopback, private, link-local, unique-local, carrier-grade NAT,
 * "this network", multicast and reserved ranges, and IPv6 forms that embed an IPv4 address
 * (mapped, NAT64) when the embedded one is refused.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (::ffff:a.b.c.d, 64:ff9b::/96, ::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an IP address is one a webhook may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

export class ForbiddenTargetError extends Error {}

function refusal(host: string, address: string) {
  return new ForbiddenTargetError(
    `${host} resolves to ${address}, a loopback, private, link-local or reserved address; webhooks may not target those (WEBHOOK_ALLOW_PRIVATE=true allows them)`,
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
 * A `lookup` for http.request that checks every address at connection time, so a name that
 * resolved to a public address when the webhook was saved and now resolves to a private one
 * (DNS rebinding) is refused when the delivery connects.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return (callback as (e: Error | null, a: string, f?: number) => void)(err, '', undefined);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isForbiddenAddress(a.address));
    if (bad || !list.length) {
      const e = bad ? refusal(hostname, bad.address) : new Error(`${hostname} has no address`);
      return (callback as (e: Error | null, a: string, f?: number) => void)(e, '', undefined);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    (callback as (e: null, a: string, f: number) => void)(null, list[0]!.address, list[0]!.family);
  });
};
