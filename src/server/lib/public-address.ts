// Whether an IP address is on the public internet: the one kind of address a URL that a user
// typed (a webhook endpoint) may make this server connect to. Anything else reaches what only
// this machine or its network can reach (a database, an admin port, a cloud's metadata service
// handing out credentials): server-side request forgery. The ranges are IANA's special-purpose
// registries (RFC 6890 and its updates); IPv6 that carries an IPv4 address is judged by that IPv4.
import { BlockList, isIP } from 'node:net';

export type AddressRefusal =
  | 'not an IP address'
  | 'unspecified address'
  | 'loopback address'
  | 'private network address'
  | 'link-local address'
  | 'cloud metadata address'
  | 'shared (carrier-grade NAT) address'
  | 'multicast address'
  | 'broadcast address'
  | 'reserved address'
  | 'benchmarking address'
  | 'documentation address'
  | 'IETF protocol address'
  | 'IPv4-compatible address'
  | 'Teredo tunnel address'
  | 'local-use NAT64 address'
  | 'site-local address';

type Rule = [network: string, prefix: number, reason: AddressRefusal];

// First match wins: a narrow range is listed before the wider one that holds it.
const IPV4_RULES: Rule[] = [
  ['169.254.169.254', 32, 'cloud metadata address'],
  ['0.0.0.0', 8, 'unspecified address'],
  ['127.0.0.0', 8, 'loopback address'],
  ['10.0.0.0', 8, 'private network address'],
  ['172.16.0.0', 12, 'private network address'],
  ['192.168.0.0', 16, 'private network address'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'link-local address'],
  ['192.0.0.0', 24, 'IETF protocol address'],
  ['192.0.2.0', 24, 'documentation address'],
  ['198.51.100.0', 24, 'documentation address'],
  ['203.0.113.0', 24, 'documentation address'],
  ['198.18.0.0', 15, 'benchmarking address'],
  // The deprecated 6to4 relay anycast (RFC 7526): no endpoint of anyone's lives there.
  ['192.88.99.0', 24, 'reserved address'],
  ['224.0.0.0', 4, 'multicast address'],
  ['255.255.255.255', 32, 'broadcast address'],
  ['240.0.0.0', 4, 'reserved address'],
];

const IPV6_RULES: Rule[] = [
  // AWS's instance metadata over IPv6 sits inside the unique-local range; named for the log.
  ['fd00:ec2::254', 128, 'cloud metadata address'],
  ['fc00::', 7, 'private network address'],
  ['fe80::', 10, 'link-local address'],
  ['fec0::', 10, 'site-local address'],
  ['ff00::', 8, 'multicast address'],
  // RFC 8215: a NAT64 prefix of one network's own, so its translator reaches that network's inside.
  ['64:ff9b:1::', 48, 'local-use NAT64 address'],
  // Teredo tunnels through an IPv4 relay to whatever IPv4 it embeds; no receiver needs one.
  ['2001::', 32, 'Teredo tunnel address'],
  ['2001:2::', 48, 'benchmarking address'],
  ['2001::', 23, 'IETF protocol address'],
  ['2001:db8::', 32, 'documentation address'],
  ['3fff::', 20, 'documentation address'],
];

function compile(rules: Rule[], family: 'ipv4' | 'ipv6') {
  return rules.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, reason };
  });
}

const V4 = compile(IPV4_RULES, 'ipv4');
const V6 = compile(IPV6_RULES, 'ipv6');
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** Why `address` (a bare IPv4 or IPv6 address, no brackets) may not be connected to; null when it is public. */
export function addressRefusal(address: string): AddressRefusal | null {
  // A zone ("fe80::1%eth0") names an interface of this machine: never a public address.
  if (address.includes('%')) return 'link-local address';
  const family = isIP(address);
  if (family === 4) return V4.find((rule) => rule.list.check(address, 'ipv4'))?.reason ?? null;
  if (family !== 6) return 'not an IP address';

  const bytes = ipv6Bytes(address);
  const embedded = embeddedIpv4(bytes);
  if (embedded !== undefined) return embedded === null ? 'IPv4-compatible address' : addressRefusal(embedded);
  if (bytes.every((b) => b === 0)) return 'unspecified address';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback address';
  const rule = V6.find((r) => r.list.check(address, 'ipv6'));
  if (rule) return rule.reason;
  // Everything outside 2000::/3 is unassigned or reserved for a special use.
  return GLOBAL_UNICAST.check(address, 'ipv6') ? null : 'reserved address';
}

export function isPublicAddress(address: string): boolean {
  return addressRefusal(address) === null;
}

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the forms that reach it:
 * IPv4-mapped (::ffff:a.b.c.d), the well-known NAT64 prefix (64:ff9b::/96, where a network's
 * translator connects to the IPv4) and 6to4 (2002:AABB:CCDD::/48). null for the deprecated
 * IPv4-compatible form (::a.b.c.d), refused whatever it holds; undefined for everything else.
 */
function embeddedIpv4(b: Uint8Array): string | null | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  // :: and ::1 are their own kinds; every other ::a.b.c.d is the compatible form.
  if (zeros(0, 12) && !zeros(12, 15)) return null;
  return undefined;
}

/** The 16 bytes of a valid IPv6 address (as isIP judged it), with or without a dotted IPv4 tail. */
function ipv6Bytes(address: string): Uint8Array {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const front = groups(head);
  const back = groups(tail);
  const middle: string[] = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  const bytes = new Uint8Array(16);
  [...front, ...middle, ...back].forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  return bytes;
}
