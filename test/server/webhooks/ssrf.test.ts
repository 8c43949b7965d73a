import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { isIP } from 'node:net';
import { classifyAddress, IPV4_SPECIAL, IPV6_SPECIAL, type SpecialRange } from '../../../server/webhooks/special-addresses.js';
import { ForbiddenTargetError, guardLookup, isForbiddenAddress } from '../../../server/webhooks/ssrf-guard.js';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Server-side request forgery: webhook targets on loopback, private, link-local, unique-local
 * and reserved addresses (or names resolving to them, or IPv6 forms embedding them) are refused
 * when registered, and again when a delivery connects, unless WEBHOOK_ALLOW_PRIVATE=true.
 */
/**
 * One address inside each entry of the IANA special-purpose registries (and the few ranges the
 * table adds), with the entry's verdict; inside each IPv4-carrying IPv6 range, every IPv4 entry's
 * address written in that range's dotted or 6to4 form, with the IPv4 entry's verdict.
 */
const inside = (r: SpecialRange): string => {
  if (r.network.includes('.')) {
    const o = r.network.split('.').map(Number);
    return r.bits < 32 ? [o[0], o[1], o[2], o[3]! + 1].join('.') : r.network;
  }
  return r.bits < 128 && r.network.endsWith('::') ? `${r.network}1` : r.network;
};
const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
const carried = (carrier: SpecialRange, v4: string): string => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  if (carrier.network === '2002::') return `2002:${hex(a, b)}:${hex(c, d)}::1`;
  return `${carrier.network.replace(/0:0$/, '')}${v4}`;
};
const registryCases: [string, boolean, string][] = [
  ...[...IPV4_SPECIAL, ...IPV6_SPECIAL].filter((r) => r.reachable !== 'embedded').map((r): [string, boolean, string] => [inside(r), r.reachable === true, `${r.name} ${r.network}/${r.bits}`]),
  ...IPV6_SPECIAL.filter((r) => r.reachable === 'embedded').flatMap((carrier) =>
    IPV4_SPECIAL.map((r): [string, boolean, string] => [carried(carrier, inside(r)), r.reachable === true, `${carrier.name} carrying ${r.name}`]),
  ),
];
/** The spellings the review found accepted, and the classic ones. */
const refusedSpellings = [
  '::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::a00:1', '::ffff:0:7f00:1', '64:ff9b:1::7f00:1', '2002:7f00:1::', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:db8::1', '100::1', '192.0.2.1', '198.51.100.7', '203.0.113.9', '192.88.99.1',
  '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
  '::1', '::', 'fe80::1', 'fd00::1', 'fc00::abcd', 'ff02::1', 'fec0::1', '4000::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1',
  '64:ff9b::a00:1', '2002:a9fe:a9fe::', 'fe80::1%eth0', 'not-an-ip',
];
const globalAddresses = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '192.0.0.9', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '::ffff:0:808:808', '2002:808:808::1', '2001:1::1'];
const allCases: [string, boolean, string][] = [
  ...registryCases,
  ...refusedSpellings.map((a): [string, boolean, string] => [a, false, 'review spelling']),
  ...globalAddresses.map((a): [string, boolean, string] => [a, true, 'global']),
];

describe('which addresses a webhook may not reach: the IANA special-purpose registries', () => {
  it('the table has every registry entry named with its RFC', () => {
    expect(IPV4_SPECIAL.length).toBeGreaterThanOrEqual(26);
    expect(IPV6_SPECIAL.length).toBeGreaterThanOrEqual(28);
    for (const r of [...IPV4_SPECIAL, ...IPV6_SPECIAL]) expect(r.rfc).toMatch(/^RFC \d+/);
  });

  it.each(registryCases)('%s: reachable %s (%s)', (address, reachable) => expect(isForbiddenAddress(address)).toBe(!reachable));

  it.each(refusedSpellings)('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(globalAddresses)('allows %s', (address) => expect(isForbiddenAddress(address)).toBe(false));

  it('names the entry that refused', () => {
    expect(classifyAddress('::7f00:1')?.range).toBe('IPv4-Compatible (deprecated) (RFC 4291 §2.5.5.1)');
    expect(classifyAddress('2002:7f00:1::')?.range).toBe('6to4 (RFC 3056) → Loopback (RFC 1122 §3.2.1.3)');
    expect(classifyAddress('192.0.2.1')?.range).toBe('Documentation (TEST-NET-1) (RFC 5737)');
  });
});

describe('the connection-time guard: every address a name resolves to, judged the same way', () => {
  /** A lookup (dns.lookup's contract) answering for `*.hook.test` from the table: the name's first label is the address, with - for : and . */
  const tableLookup = ((hostname: string, options: LookupOptions, callback: (e: NodeJS.ErrnoException | null, a: LookupAddress[] | string, f?: number) => void) => {
    const address = hostname.replace(/\.hook\.test$/, '').replace(/_/g, ':').replace(/-/g, '.');
    const family = isIP(address);
    if (!family) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
    const list = [{ address, family }];
    if (options.all) callback(null, list);
    else callback(null, address, family);
  }) as unknown as typeof dnsLookup;
  const resolveGuarded = (address: string) =>
    new Promise<string>((resolve, reject) =>
      guardLookup(tableLookup)(`${address.replace(/\./g, '-').replace(/:/g, '_')}.hook.test`, { all: true }, (e, a) => (e ? reject(e) : resolve((a as unknown as LookupAddress[])[0]!.address))),
    );

  it.each(allCases.filter(([a]) => isIP(a) && !a.includes('%')))('%s: %s (%s)', async (address, reachable) => {
    if (reachable) expect(await resolveGuarded(address)).toBe(address);
    else await expect(resolveGuarded(address)).rejects.toThrow(/which is not globally reachable/);
  });

  it('a request through the guard is refused before it connects', async () => {
    const refused = await new Promise<Error>((resolve) => {
      const req = httpRequest({ host: '127-0-0-1.hook.test', port: 9, path: '/', lookup: guardLookup(tableLookup) }, () => resolve(new Error('connected')));
      req.on('error', resolve);
      req.end();
    });
    expect(refused).toBeInstanceOf(ForbiddenTargetError);
    expect(refused.message).toMatch(/^127-0-0-1\.hook\.test resolves to 127\.0\.0\.1, which is not globally reachable \(Loopback/);
  });
});

describe('SSRF guard over HTTP', () => {
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('refuses private targets at registration, literal or by name, naming the address', async () => {
    const server = await startServer();
    servers.push(server);
    const { token } = await createUserWithToken(server, 'ssrf@example.com');
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.7/', 'http://[::ffff:127.0.0.1]/', 'https://[fd12::1]/', 'http://localhost/hook']) {
      const res = await api.post(server, '/api/v2/webhooks', { token, json: { url } });
      expect([url, res.status]).toEqual([url, 422]);
      expect(res.body.url[0]).toMatch(/^is not allowed: .* resolves to .*, which is not globally reachable \(/);
    }
    // A public literal is accepted (no connection is made to register it).
    expect((await api.post(server, '/api/v2/webhooks', { token, json: { url: 'https://93.184.216.34/hook', events: ['request.answered'] } })).status).toBe(201);
  });

  it('at registration, over REST and tRPC, every case of the registries is refused or accepted as the table says', async () => {
    const server = await startServer();
    servers.push(server);
    const { token } = await createUserWithToken(server, 'ssrf-table@example.com');
    const wrong: string[] = [];
    for (const [address, reachable, entry] of allCases.filter(([a]) => isIP(a) && !a.includes('%'))) {
      const url = `http://${isIP(address) === 6 ? `[${address}]` : address}/hook`;
      const rest = await api.post(server, '/api/v2/webhooks', { token, json: { url, events: ['push.created'] } });
      const trpc = await api.post(server, '/trpc/webhooks.create', { token, json: { url, events: ['push.created'] } });
      const expected = reachable ? [201, 200] : [422, 422];
      if (rest.status !== expected[0] || trpc.status !== expected[1]) wrong.push(`${address} (${entry}): REST ${rest.status}, tRPC ${trpc.status}`);
      if (!reachable) expect(rest.body.url?.[0]).toMatch(/which is not globally reachable/);
      if (rest.status === 201) await api.delete(server, `/api/v2/webhooks/${rest.body.id}`, { token });
      if (trpc.status === 200) await api.post(server, '/trpc/webhooks.remove', { token, json: { id: trpc.body.result.data.id } });
    }
    expect(wrong).toEqual([]);
  });

  it('checks again at delivery time: a loopback target saved while allowed is refused once it is not', async () => {
    const receiver = await WebhookReceiver.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-ssrf-'));
    dirs.push(dataDir);
    const allowed = await startServer({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '3600' });
    const { token } = await createUserWithToken(allowed, 'rebind@example.com');
    expect((await api.post(allowed, '/api/v2/webhooks', { token, json: { url: receiver.url.replace('127.0.0.1', 'localhost') } })).status).toBe(201);
    await allowed.close();

    const guarded = await startServer({ DATA_DIR: dataDir, WEBHOOK_POLL_SECONDS: '0.05', WEBHOOK_RETRY_BASE_SECONDS: '3600' });
    servers.push(guarded);
    await createPush(guarded, { payload: 'x' }, token);
    await vi.waitFor(
      async () => {
        const [d] = (await api.get(guarded, '/api/v2/webhooks/deliveries', { token })).body;
        expect(d).toMatchObject({ type: 'push.created', state: 'pending', attempts: 1, last_status: null });
        expect(d.last_error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is not globally reachable \(Loopback/);
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(receiver.received).toEqual([]);
    await receiver.close();
  });
});
