import ipaddr from 'ipaddr.js';

/**
 * The network a client address stands for when views are counted per address: an IPv4 address as it
 * is (a school behind one NAT address is one network), an IPv6 address by its /64 (one home or device
 * holds a whole /64 and can pick any address in it, so a client could otherwise count as a new address
 * per request). IPv4-mapped IPv6 addresses ('::ffff:1.2.3.4', as Node reports IPv4 clients on a dual
 * stack socket) are their IPv4 address. Anything unparsable is its own network, as given.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return `raw:${ip}`;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
