/**
 * Client addresses exempt from the hourly quote limit: `COTIZACIONES_EXENTAS=127.0.0.1,10.0.0.5,10.1.0.0/16`
 * — e.g. the testers' machines that replay every fixture against a QA deployment. Matched against `request.ip`
 * (what the trusted proxies say, TRUST_PROXY), never against a header a client could send. IPv4 addresses also match
 * in their IPv6-mapped form (`::ffff:127.0.0.1`).
 */
import { BlockList, isIP } from 'node:net';

/**
 * Parses the comma-separated list (addresses or CIDR subnets, IPv4 or IPv6; blanks ignored).
 * @returns the entries as given
 * @throws Error naming the first entry that is neither an address nor a subnet
 */
export function parseCotizacionesExentas(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const e of entries) {
    const [addr, bits, extra] = e.split('/');
    const family = isIP(addr);
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!family || !okBits || extra !== undefined)
      throw new Error(`COTIZACIONES_EXENTAS: «${e}» no es una dirección IP ni una subred (p. ej. 10.0.0.5 o 10.1.0.0/16)`);
  }
  return entries;
}

/** @returns a predicate: is this client IP (request.ip) in `entries`? */
export function exentaDeCotizaciones(entries: string[]): (ip: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const e of entries) {
    const [addr, bits] = e.split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  return (ip: string) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    const addr = mapped ? mapped[1] : ip;
    const family = isIP(addr);
    return family !== 0 && list.check(addr, family === 6 ? 'ipv6' : 'ipv4');
  };
}
