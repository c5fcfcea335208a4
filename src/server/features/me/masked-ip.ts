// Settings → Security → Signed-in devices (docs/decisions/164): the address a session signed in
// from, partly hidden. An IPv4 address keeps its first three parts ("203.0.113.x"); an IPv6
// address its first 48 bits, the site's prefix, with the rest as x ("2001:db8:85a3:x:x:x:x:x").
// Enough to recognise "that is my office" or "that is not my provider", not enough to point at
// one household; the same cut web analytics make when they anonymise addresses.
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail becomes the last two). */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const dotted = text.match(/:(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  const groups = halves.length === 2 ? [...head, ...Array<number>(missing).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const maskIpv4 = (address: string) => `${address.split('.').slice(0, 3).join('.')}.x`;
/** A session from the server's own machine (a demo on localhost): masking "127.0.0.1" tells no one anything. Never "this …": it is not the current device. */
export const LOOPBACK_LABEL = 'localhost';
const maskIpv4OrLoopback = (address: string) => (address.startsWith('127.') ? LOOPBACK_LABEL : maskIpv4(address));

/** The address partly masked, or null when none was stored or it is not an IP address. */
export function maskedIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  // A scoped link-local address carries its interface ("fe80::1%eth0"): not part of the address.
  const address = ip.split('%')[0] ?? '';
  if (isIPv4(address)) return maskIpv4OrLoopback(address);
  if (!isIPv6(address)) return null;
  const groups = ipv6Groups(address.toLowerCase());
  if (!groups) return null;
  // An IPv4 client seen through a dual-stack socket (::ffff:203.0.113.7) is an IPv4 client.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return maskIpv4OrLoopback(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  }
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return LOOPBACK_LABEL;
  return `${groups
    .slice(0, 3)
    .map((group) => group.toString(16))
    .join(':')}:x:x:x:x:x`;
}
