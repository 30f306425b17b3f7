import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { HostResolver, isPublicAddress } from './webhook-address-guard';
import { WebhookSender } from './webhook-sender';

/**
 * The production rule for endpoints: the addresses a name resolves to are checked after DNS, on the answers the
 * connection then uses. DNS is mocked at the resolver (a name answering with a loopback or private address, as a
 * rebinding attacker's name would); the check itself runs as in production.
 */
describe(WebhookSender.name, () => {
  let server: Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests += 1;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const answering = (address: string, family: 4 | 6 = 4): HostResolver => async () => [{ address, family }];
  const sender = (resolve: HostResolver, allowPrivate: boolean): WebhookSender => new WebhookSender({ timeoutMs: 2_000, maxResponseBytes: 65_536, allowPrivate, resolve });

  it.each([
    ['a loopback address', '127.0.0.1', 4],
    ['a private address (10/8)', '10.1.2.3', 4],
    ['a private address (192.168/16)', '192.168.1.10', 4],
    ['the cloud metadata address (link-local)', '169.254.169.254', 4],
    ['the IPv6 loopback', '::1', 6],
    ['an IPv6 unique local address (a cloud metadata address)', 'fd00:ec2::254', 6],
    ['an IPv4-mapped loopback', '::ffff:127.0.0.1', 6],
  ] as const)('refuses, in production, a name that resolves to %s, before connecting', async (_kind, address, family) => {
    const before = requests;
    const production = sender(answering(address, family), false);
    // The name is public-looking; only its DNS answer is not. Over http so the refusal is the address, not the scheme,
    // the same request goes through when private addresses are allowed (below).
    const result = await production.post(`https://hooks.example.test:${port}/`, {}, '{}');
    production.close();
    expect(result).toEqual({ ok: false, status: null, body: null, error: `hooks.example.test resolves to ${address}, a loopback, private, link-local or reserved address` });
    expect(requests).toBe(before);
  });

  it('refuses a name with one private answer among public ones (any answer could be the one connected to)', async () => {
    const mixed: HostResolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const production = sender(mixed, false);
    const result = await production.post('https://hooks.example.test/', {}, '{}');
    production.close();
    expect(result.error).toBe('hooks.example.test resolves to 10.0.0.7, a loopback, private, link-local or reserved address');
  });

  it('refuses, in production, an address literal that is not public, and any http URL', async () => {
    const production = sender(answering('93.184.215.14'), false);
    expect((await production.post(`https://127.0.0.1:${port}/`, {}, '{}')).error).toBe('127.0.0.1 resolves to 127.0.0.1, a loopback, private, link-local or reserved address');
    expect((await production.post('https://[::1]/', {}, '{}')).error).toBe('::1 resolves to ::1, a loopback, private, link-local or reserved address');
    expect((await production.post('http://hooks.example.test/', {}, '{}')).error).toBe('only https endpoints are allowed');
    production.close();
  });

  it('delivers to the same name when private addresses are allowed (development), so the refusal above is the rule', async () => {
    const development = sender(answering('127.0.0.1'), true);
    const before = requests;
    const result = await development.post(`http://hooks.example.test:${port}/`, {}, '{}');
    development.close();
    expect(result).toEqual({ ok: true, status: 200, body: 'ok', error: null });
    expect(requests).toBe(before + 1);
  });

  it('takes public unicast addresses only', () => {
    expect(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'].filter(isPublicAddress)).toHaveLength(4);
    expect(['0.0.0.0', '100.64.0.1', '172.16.0.1', '198.18.0.1', '224.0.0.1', '255.255.255.255', 'fe80::1', 'ff02::1', '64:ff9b::a00:1', 'not an address'].filter(isPublicAddress)).toEqual([]);
  });
});
