import { BlockList, isIP } from 'node:net';

/**
 * The IANA special-purpose address registries (iana-ipv4-special-registry and
 * iana-ipv6-special-registry, as of 2025), with the few ranges outside them that a webhook must
 * not reach either (multicast, deprecated IPv6 forms). `reachable` is the registry's "Globally
 * Reachable"; where it says N/A (6to4, Teredo, the 6to4 relay) or a range carries an IPv4 address,
 * the entry says what is done instead. An address takes the verdict of the most specific entry
 * that holds it; an IPv4 address no entry holds is global; an IPv6 one is global only inside
 * 2000::/3 (the rest is unassigned or reserved, RFC 4291 §2.4).
 */
export interface SpecialRange {
  /** Network address and prefix length. */
  network: string;
  bits: number;
  name: string;
  rfc: string;
  /**
   * true: globally reachable; false: refused; `embedded`: the address carries an IPv4 address
   * (at bit `embeddedAt`) and is judged as that address, since that is what a connection reaches.
   */
  reachable: boolean | 'embedded';
  embeddedAt?: number;
}

export const IPV4_SPECIAL: readonly SpecialRange[] = [
  { network: '0.0.0.0', bits: 8, name: '"This network"', rfc: 'RFC 791 §3.2', reachable: false },
  { network: '0.0.0.0', bits: 32, name: '"This host on this network"', rfc: 'RFC 1122 §3.2.1.3', reachable: false },
  { network: '10.0.0.0', bits: 8, name: 'Private-Use', rfc: 'RFC 1918', reachable: false },
  { network: '100.64.0.0', bits: 10, name: 'Shared Address Space', rfc: 'RFC 6598', reachable: false },
  { network: '127.0.0.0', bits: 8, name: 'Loopback', rfc: 'RFC 1122 §3.2.1.3', reachable: false },
  { network: '169.254.0.0', bits: 16, name: 'Link Local', rfc: 'RFC 3927', reachable: false },
  { network: '172.16.0.0', bits: 12, name: 'Private-Use', rfc: 'RFC 1918', reachable: false },
  { network: '192.0.0.0', bits: 24, name: 'IETF Protocol Assignments', rfc: 'RFC 6890 §2.1', reachable: false },
  { network: '192.0.0.0', bits: 29, name: 'IPv4 Service Continuity Prefix', rfc: 'RFC 7335', reachable: false },
  { network: '192.0.0.8', bits: 32, name: 'IPv4 dummy address', rfc: 'RFC 7600', reachable: false },
  { network: '192.0.0.9', bits: 32, name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', reachable: true },
  { network: '192.0.0.10', bits: 32, name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', reachable: true },
  { network: '192.0.0.170', bits: 32, name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050 §2.2', reachable: false },
  { network: '192.0.0.171', bits: 32, name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050 §2.2', reachable: false },
  { network: '192.0.2.0', bits: 24, name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', reachable: false },
  { network: '192.31.196.0', bits: 24, name: 'AS112-v4', rfc: 'RFC 7535', reachable: true },
  { network: '192.52.193.0', bits: 24, name: 'AMT', rfc: 'RFC 7450', reachable: true },
  // Registry: N/A (deprecated); nothing a webhook should reach.
  { network: '192.88.99.0', bits: 24, name: 'Deprecated (6to4 Relay Anycast)', rfc: 'RFC 7526', reachable: false },
  { network: '192.88.99.2', bits: 32, name: '6a44-relay anycast address', rfc: 'RFC 6751', reachable: false },
  { network: '192.168.0.0', bits: 16, name: 'Private-Use', rfc: 'RFC 1918', reachable: false },
  { network: '192.175.48.0', bits: 24, name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', reachable: true },
  { network: '198.18.0.0', bits: 15, name: 'Benchmarking', rfc: 'RFC 2544', reachable: false },
  { network: '198.51.100.0', bits: 24, name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737', reachable: false },
  { network: '203.0.113.0', bits: 24, name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737', reachable: false },
  // Not in the special-purpose registry (the IPv4 address space registry's multicast block).
  { network: '224.0.0.0', bits: 4, name: 'Multicast', rfc: 'RFC 5771', reachable: false },
  { network: '240.0.0.0', bits: 4, name: 'Reserved', rfc: 'RFC 1112 §4', reachable: false },
  { network: '255.255.255.255', bits: 32, name: 'Limited Broadcast', rfc: 'RFC 8190, RFC 919 §7', reachable: false },
];

export const IPV6_SPECIAL: readonly SpecialRange[] = [
  // Not a registry entry: everything outside global unicast is unassigned or reserved.
  { network: '::', bits: 0, name: 'Outside global unicast', rfc: 'RFC 4291 §2.4', reachable: false },
  { network: '2000::', bits: 3, name: 'Global Unicast', rfc: 'RFC 4291 §2.4', reachable: true },
  { network: '::1', bits: 128, name: 'Loopback Address', rfc: 'RFC 4291', reachable: false },
  { network: '::', bits: 128, name: 'Unspecified Address', rfc: 'RFC 4291', reachable: false },
  // Not a registry entry: deprecated, and Linux sends ::a.b.c.d nowhere useful. Refused whole.
  { network: '::', bits: 96, name: 'IPv4-Compatible (deprecated)', rfc: 'RFC 4291 §2.5.5.1', reachable: false },
  // Registry: not globally reachable; a dual-stack socket reaches the IPv4 address it carries.
  { network: '::ffff:0:0', bits: 96, name: 'IPv4-mapped Address', rfc: 'RFC 4291', reachable: 'embedded', embeddedAt: 96 },
  // Not a registry entry: SIIT's translated form, reaching the IPv4 address it carries.
  { network: '::ffff:0:0:0', bits: 96, name: 'IPv4-translated Address', rfc: 'RFC 2765 §2.1', reachable: 'embedded', embeddedAt: 96 },
  { network: '64:ff9b::', bits: 96, name: 'IPv4-IPv6 Translat.', rfc: 'RFC 6052', reachable: 'embedded', embeddedAt: 96 },
  { network: '64:ff9b:1::', bits: 48, name: 'IPv4-IPv6 Translat. (local use)', rfc: 'RFC 8215', reachable: false },
  { network: '100::', bits: 64, name: 'Discard-Only Address Block', rfc: 'RFC 6666', reachable: false },
  { network: '100:0:0:1::', bits: 64, name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780', reachable: false },
  { network: '2001::', bits: 23, name: 'IETF Protocol Assignments', rfc: 'RFC 2928', reachable: false },
  // Registry: N/A. A Teredo address hides its IPv4 server and client (obfuscated): refused whole.
  { network: '2001::', bits: 32, name: 'TEREDO', rfc: 'RFC 4380, RFC 8190', reachable: false },
  { network: '2001:1::1', bits: 128, name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', reachable: true },
  { network: '2001:1::2', bits: 128, name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', reachable: true },
  { network: '2001:1::3', bits: 128, name: 'DNS-SD Service Registration Protocol Anycast', rfc: 'RFC 9665', reachable: true },
  { network: '2001:2::', bits: 48, name: 'Benchmarking', rfc: 'RFC 5180', reachable: false },
  { network: '2001:3::', bits: 32, name: 'AMT', rfc: 'RFC 7450', reachable: true },
  { network: '2001:4:112::', bits: 48, name: 'AS112-v6', rfc: 'RFC 7535', reachable: true },
  { network: '2001:10::', bits: 28, name: 'Deprecated (previously ORCHID)', rfc: 'RFC 4843', reachable: false },
  { network: '2001:20::', bits: 28, name: 'ORCHIDv2', rfc: 'RFC 7343', reachable: true },
  { network: '2001:30::', bits: 28, name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', rfc: 'RFC 9374', reachable: true },
  { network: '2001:db8::', bits: 32, name: 'Documentation', rfc: 'RFC 3849', reachable: false },
  // Registry: N/A. Routed to the IPv4 address in bits 16-47 by a 6to4 relay.
  { network: '2002::', bits: 16, name: '6to4', rfc: 'RFC 3056', reachable: 'embedded', embeddedAt: 16 },
  { network: '2620:4f:8000::', bits: 48, name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', reachable: true },
  { network: '3fff::', bits: 20, name: 'Documentation', rfc: 'RFC 9637', reachable: false },
  { network: '5f00::', bits: 16, name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', reachable: false },
  { network: 'fc00::', bits: 7, name: 'Unique-Local', rfc: 'RFC 4193, RFC 8190', reachable: false },
  { network: 'fe80::', bits: 10, name: 'Link-Local Unicast', rfc: 'RFC 4291', reachable: false },
  // Not registry entries (outside 2000::/3 anyway): named for the refusal's message.
  { network: 'fec0::', bits: 10, name: 'Site-Local (deprecated)', rfc: 'RFC 3879', reachable: false },
  { network: 'ff00::', bits: 8, name: 'Multicast', rfc: 'RFC 4291 §2.7', reachable: false },
];

/** What the registries say about one address. */
export interface AddressVerdict {
  reachable: boolean;
  /** The entry that decided, e.g. "Loopback (RFC 1122 §3.2.1.3)", or "IPv4-mapped Address → Loopback (…)". */
  range: string;
}

interface Matcher {
  list: BlockList;
  range: SpecialRange;
  label: string;
  reachable: boolean;
}

const hex = (a: number, b: number) => ((a << 8) | b).toString(16);

/**
 * An IPv4 range placed inside an IPv4-carrying IPv6 range, as an IPv6 network written from the
 * table's numbers (the address checked is never taken apart: BlockList compares parsed bytes).
 */
function embeddedNetwork(outer: SpecialRange, inner: SpecialRange): string {
  const [a, b, c, d] = inner.network.split('.').map(Number) as [number, number, number, number];
  const v4 = `${hex(a, b)}:${hex(c, d)}`;
  // 6to4: 2002:AABB:CCDD::; the others carry it in their last 32 bits.
  if (outer.embeddedAt === 16) return `${outer.network.replace(/::$/, '')}:${v4}::`;
  return `${outer.network.endsWith('::') ? outer.network : outer.network.replace(/0:0$/, '')}${v4}`;
}

function matcher(range: SpecialRange, family: 'ipv4' | 'ipv6', network = range.network, bits = range.bits, label = `${range.name} (${range.rfc})`, reachable = range.reachable === true): Matcher {
  const list = new BlockList();
  list.addSubnet(network, bits, family);
  return { list, range: { ...range, network, bits }, label, reachable };
}

/** Most specific first. */
const bySpecificity = (x: Matcher, y: Matcher) => y.range.bits - x.range.bits;

const ipv4Matchers = IPV4_SPECIAL.map((r) => matcher(r, 'ipv4')).sort(bySpecificity);

const ipv6Matchers = IPV6_SPECIAL.flatMap((outer) => {
  if (outer.reachable !== 'embedded') return [matcher(outer, 'ipv6')];
  const label = `${outer.name} (${outer.rfc})`;
  // The carrier itself (an IPv4 address no entry holds: global), then each IPv4 entry inside it.
  return [
    matcher(outer, 'ipv6', outer.network, outer.bits, label, true),
    ...IPV4_SPECIAL.map((inner) => matcher(inner, 'ipv6', embeddedNetwork(outer, inner), outer.embeddedAt! + inner.bits, `${label} → ${inner.name} (${inner.rfc})`, inner.reachable === true)),
  ];
}).sort(bySpecificity);

/**
 * The registries' verdict on an IP address (IPv6 with or without a zone); undefined when it is
 * not an IP address.
 */
export function classifyAddress(address: string): AddressVerdict | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) {
    const hit = ipv4Matchers.find((m) => m.list.check(bare, 'ipv4'));
    return hit ? { reachable: hit.reachable, range: hit.label } : { reachable: true, range: 'global' };
  }
  if (family !== 6) return undefined;
  const hit = ipv6Matchers.find((m) => m.list.check(bare, 'ipv6'))!;
  return { reachable: hit.reachable, range: hit.label };
}
