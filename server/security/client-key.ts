import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which client a request's address stands for, for the rate limit, the guess limits and the
 * quotas. An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, what a dual-stack socket reports)
 * is that IPv4 address; an IPv6 address counts as its /64, the block one subscriber usually
 * holds whole, so that rotating through its 2^64 addresses is no way around a limit.
 */
export function clientKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address || 'unknown';
  const groups = expandIPv6(address.split('%')[0]!);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function expandIPv6(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array(missing).fill('0'), ...right].map((g) => Number.parseInt(g || '0', 16));
}
