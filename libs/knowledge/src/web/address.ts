import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is one the public internet routes (issue 32 item 3): not private (10/8, 172.16/12,
 * 192.168/16, fc00::/7), loopback, link-local (169.254/16, where cloud metadata answers, and fe80::/10),
 * carrier-grade NAT, multicast, broadcast, unspecified or reserved, nor an IPv6 form that carries another IPv4
 * address (mapped, 6to4, Teredo, NAT64). ipaddr.js names the range; only plain unicast passes.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // "::ffff:10.0.0.1" is 10.0.0.1.
  return ipaddr.process(address).range() === 'unicast';
}
