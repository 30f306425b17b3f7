// eslint-disable-next-line @nx/enforce-module-boundaries -- the suite runs the SDK from source against the real platform
import { GameFixture, TestPlatform, consoleToken, createGame, freePort, stepUp, waitFor } from '@game-wallet/testing';
import { ethers } from 'ethers';
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { GameWallet, GameWalletError, ProfileClient, ProfileTokenVerifier, RequestSigner, WebCryptoRequestSigner, requestSignerFromCryptoKey, requestSignerFromPem, verifyProfileJwt } from '../src';
import { FrontProxy } from './front-proxy';

/** The SDK against the real stack: every method, error mapping, retries (through a proxy that fails on demand), aborts. */
describe('@game-wallet/sdk against the platform', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let otherGame: GameFixture;
  let client: GameWallet;
  let baseProxy: FrontProxy;
  let coreProxy: FrontProxy;
  let proxied: GameWallet;

  beforeAll(async () => {
    // A low profile-JWT rate (5/s, bursts of 5) so that a burst of a few calls reaches 429.
    platform = await TestPlatform.start('sdk', { env: { RATE_LIMIT_JWT_RPS: '5' } });
    const token = await consoleToken(platform);
    game = await createGame(platform, token, 'SDK game');
    otherGame = await createGame(platform, token, 'Other game');
    client = new GameWallet({ baseUrl: platform.baseUrl, coreUrl: platform.coreUrl, apiKey: game.key });
    baseProxy = await FrontProxy.start(platform.baseUrl);
    coreProxy = await FrontProxy.start(platform.coreUrl);
    proxied = new GameWallet({ baseUrl: baseProxy.url, coreUrl: coreProxy.url, apiKey: game.key });
  });

  afterEach(() => {
    baseProxy.reset();
    coreProxy.reset();
  });

  afterAll(async () => {
    await baseProxy?.close();
    await coreProxy?.close();
    await platform?.stop();
  });

  const newPlayer = async (owner: GameWallet = client) => (await owner.players.create({ uniqueId: `player-${Math.random()}` })).player;
  const profileClient = async (playerProfileId: string, options: { retries?: number; baseUrl?: string } = {}): Promise<ProfileClient> => {
    const { jwt } = await client.profiles.authenticate(playerProfileId);
    return GameWallet.forProfile({ baseUrl: options.baseUrl ?? platform.baseUrl, jwt, retries: options.retries });
  };
  const failure = async (promise: Promise<unknown>): Promise<GameWalletError> => {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(GameWalletError);
    return error as GameWalletError;
  };

  describe('methods', () => {
    it('creates a player (created), finds it again by uniqueId (not created), and reads it', async () => {
      const input = { uniqueId: `ada-${Math.random()}`, image: 'https://cdn.example.com/ada.png', userData: { username: 'Ada' } };
      const first = await client.players.create(input);
      expect(first.created).toBe(true);
      expect(first.player).toMatchObject({ applicationId: game.gameId, ...input, profileId: expect.any(String), walletId: expect.any(String) });
      const again = await client.players.create({ uniqueId: input.uniqueId });
      expect(again).toEqual({ player: first.player, created: false });
      await expect(client.players.get(first.player.id)).resolves.toEqual(first.player);
    });

    it('issues a profile JWT that verifies offline against the real JWKS, with the SPEC claims', async () => {
      const player = await newPlayer();
      const issued = await client.profiles.authenticate(player.profileId, { duration: 900 });
      const claims = await new ProfileTokenVerifier({ baseUrl: platform.baseUrl, issuer: 'game-wallet', app: game.gameId }).verify(issued.jwt);
      expect(claims).toMatchObject({ iss: 'game-wallet', aud: 'game-wallet:profile', sub: player.profileId, app: game.gameId, akid: game.keyId });
      expect(claims.exp - claims.iat).toBe(900);
      expect(issued.expiresAt).toBe(new Date(claims.exp * 1000).toISOString());
      const { kid } = JSON.parse(Buffer.from(issued.jwt.split('.')[0], 'base64url').toString()) as { kid: string };
      expect((await client.jwks()).keys.map((key) => key.kid)).toContain(kid);
      await expect(verifyProfileJwt(issued.jwt, { jwksUrl: `${platform.baseUrl}/v1/.well-known/jwks.json`, app: game.gameId })).resolves.toEqual(claims);
      const wrongAudience = await failure(verifyProfileJwt(issued.jwt, { baseUrl: platform.baseUrl, app: game.gameId, audience: 'game-wallet:console' }));
      expect(wrongAudience.code).toBe('INVALID_TOKEN');
      const [header, , signature] = issued.jwt.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: game.gameId })).toString('base64url')}.${signature}`;
      expect((await failure(verifyProfileJwt(tampered, { baseUrl: platform.baseUrl, app: game.gameId }))).code).toBe('INVALID_TOKEN');
    });

    it("refuses offline a profile JWT the platform issued for another game's player, unless told to accept every game", async () => {
      const other = new GameWallet({ baseUrl: platform.baseUrl, coreUrl: platform.coreUrl, apiKey: otherGame.key });
      const player = await newPlayer(other);
      const { jwt } = await other.profiles.authenticate(player.profileId);
      const ours = new ProfileTokenVerifier({ baseUrl: platform.baseUrl, app: game.gameId });
      const refused = await failure(ours.verify(jwt));
      expect([refused.status, refused.code, refused.message]).toEqual([0, 'INVALID_TOKEN', `The token is not for game ${game.gameId}`]);
      expect((await failure(verifyProfileJwt(jwt, { baseUrl: platform.baseUrl, app: game.gameId }))).code).toBe('INVALID_TOKEN');
      await expect(new ProfileTokenVerifier({ baseUrl: platform.baseUrl, app: [game.gameId, otherGame.gameId] }).verify(jwt)).resolves.toMatchObject({ app: otherGame.gameId });
      await expect(new ProfileTokenVerifier({ baseUrl: platform.baseUrl, acceptAnyApp: true }).verify(jwt)).resolves.toMatchObject({ app: otherGame.gameId, sub: player.profileId });
      // The sentinel: the same verifier accepts its own game's tokens.
      const own = await client.profiles.authenticate((await newPlayer()).profileId);
      await expect(ours.verify(own.jwt)).resolves.toMatchObject({ app: game.gameId });
    });

    it('reads the wallet (with its profile, one chain) and signs with it as the profile; the signature verifies', async () => {
      const player = await newPlayer();
      const profile = await profileClient(player.profileId);
      const wallet = await profile.wallets.get(player.walletId, { include: 'profile', chain: 'evm' });
      expect(wallet).toMatchObject({ id: player.walletId, applicationId: game.gameId, profileId: player.profileId, profile: { id: player.profileId, applicationId: game.gameId } });
      expect(Object.keys(wallet.addresses)).toEqual(['evm']);
      const message = `Sign in to SDK game: ${Math.random()}`;
      const signed = await profile.wallets.sign(player.walletId, { chain: 'evm', message });
      expect(signed).toEqual({ chain: 'evm', address: wallet.addresses.evm, signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) });
      expect(ethers.verifyMessage(message, signed.signature)).toBe(wallet.addresses.evm);
    });

    it('signs bytes and hex with the API key, on every chain', async () => {
      const player = await newPlayer();
      const wallet = await client.wallets.get(player.walletId);
      const bytes = new Uint8Array([0x68, 0x69, 0x00, 0xff]);
      const evm = await client.wallets.sign(player.walletId, { chain: 'evm', message: bytes });
      expect(ethers.verifyMessage(bytes, evm.signature)).toBe(wallet.addresses.evm);
      const hex = await client.wallets.sign(player.walletId, { chain: 'evm', message: '0x686900ff', encoding: 'hex' });
      expect(hex.signature).toBe(evm.signature);
      for (const chain of ['sol', 'sui'] as const) {
        await expect(client.wallets.sign(player.walletId, { chain, message: 'hello' })).resolves.toMatchObject({ chain, address: wallet.addresses[chain] });
      }
    });

    it('lets the profile client refresh its own token, and refuses it another profile', async () => {
      const player = await newPlayer();
      const profile = await profileClient(player.profileId);
      const refreshed = await profile.profiles.authenticate(player.profileId, { duration: 120 });
      await expect(new ProfileTokenVerifier({ baseUrl: platform.baseUrl, app: game.gameId }).verify(refreshed.jwt)).resolves.toMatchObject({ sub: player.profileId });
      const stranger = await newPlayer();
      const error = await failure(profile.wallets.get(stranger.walletId));
      expect([error.status, error.code]).toEqual([403, 'FORBIDDEN']);
      expect((await failure(profile.profiles.authenticate(stranger.profileId))).code).toBe('FORBIDDEN');
    });

    it("revokes a profile's tokens: the profile client then gets 401 TOKEN_REVOKED", async () => {
      const player = await newPlayer();
      const profile = await profileClient(player.profileId);
      await profile.wallets.get(player.walletId);
      await expect(client.profiles.revoke(player.profileId)).resolves.toBeUndefined();
      const error = await waitFor(async () => {
        const outcome = await profile.wallets.get(player.walletId).then(() => undefined, (reason: unknown) => reason as GameWalletError);
        return outcome?.code === 'TOKEN_REVOKED' ? outcome : undefined;
      }, 5000, 'TOKEN_REVOKED');
      expect(error.status).toBe(401);
    });

    it('reads the health of the gateway and of the services, and the JWKS, as a profile client too', async () => {
      await expect(client.health()).resolves.toMatchObject({ status: 'ok', error: {}, details: { database: { status: 'up' }, redis: { status: 'up' } } });
      await expect(client.health({ scope: 'services' })).resolves.toMatchObject({
        status: 'ok',
        details: { identity: { status: 'up' }, wallet: { status: 'up' }, core: { status: 'up' } },
      });
      const profile = GameWallet.forProfile({ baseUrl: platform.baseUrl, jwt: 'not-needed-here' });
      await expect(profile.health()).resolves.toMatchObject({ status: 'ok' });
      const jwks = await profile.jwks();
      expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) });
    });
  });

  describe('errors', () => {
    it('maps 401 for an unknown API key, with the request id of the answer', async () => {
      const stranger = new GameWallet({ baseUrl: platform.baseUrl, coreUrl: platform.coreUrl, apiKey: `gk_${'x'.repeat(40)}` });
      const error = await failure(stranger.players.get('01900000-0000-7000-8000-000000000000', { requestId: 'sdk-e2e-401' }));
      expect(error).toMatchObject({ name: 'GameWalletError', status: 401, code: 'INVALID_API_KEY', requestId: 'sdk-e2e-401' });
      expect(error.message).not.toBe('');
      const generated = await failure(stranger.wallets.get('01900000-0000-7000-8000-000000000000'));
      expect(generated.requestId).toEqual(expect.any(String));
    });

    it("maps 403 for another game's player, wallet and profile", async () => {
      const theirs = await newPlayer(new GameWallet({ baseUrl: platform.baseUrl, coreUrl: platform.coreUrl, apiKey: otherGame.key }));
      expect(await failure(client.players.get(theirs.id))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(await failure(client.wallets.get(theirs.walletId))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(await failure(client.profiles.authenticate(theirs.profileId))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });

    it('maps 404 for a player, wallet or profile that does not exist', async () => {
      const missing = '01900000-0000-7000-8000-000000000000';
      expect(await failure(client.players.get(missing))).toMatchObject({ status: 404, code: 'PLAYER_NOT_FOUND' });
      expect(await failure(client.wallets.get(missing))).toMatchObject({ status: 404, code: 'WALLET_NOT_FOUND' });
      expect(await failure(client.profiles.authenticate(missing))).toMatchObject({ status: 404, code: 'PROFILE_NOT_FOUND' });
      expect(await failure(client.profiles.revoke(missing))).toMatchObject({ status: 404, code: 'PROFILE_NOT_FOUND' });
    });

    it('maps 400 for input the platform refuses', async () => {
      const player = await newPlayer();
      expect(await failure(client.profiles.authenticate(player.profileId, { duration: 1 }))).toMatchObject({ status: 400, code: 'INVALID_DURATION' });
      expect(await failure(client.players.create({ uniqueId: '' }))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(await failure(client.wallets.sign(player.walletId, { chain: 'evm', message: 'zz', encoding: 'hex' }))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    });

    it('maps a connection that fails to NETWORK_ERROR', async () => {
      const port = await freePort();
      const nowhere = new GameWallet({ baseUrl: `http://127.0.0.1:${port}`, coreUrl: `http://127.0.0.1:${port}`, apiKey: game.key, retries: 0 });
      expect(await failure(nowhere.health())).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    });
  });

  describe('rate limits (429)', () => {
    it('throws RATE_LIMITED with retryAfter when retries are off, and sends each call once', async () => {
      const player = await newPlayer();
      const profile = await profileClient(player.profileId, { retries: 0, baseUrl: baseProxy.url });
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => profile.wallets.get(player.walletId).then(() => undefined, (reason: unknown) => reason as GameWalletError)));
      const limited = outcomes.filter((outcome) => outcome !== undefined);
      expect(limited.length).toBeGreaterThanOrEqual(5);
      for (const error of limited) {
        expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
        expect(error.retryAfter).toBeGreaterThanOrEqual(1);
      }
      expect(baseProxy.received).toHaveLength(12);
    });

    it('retries a 429 of a read after Retry-After, until the burst is through', async () => {
      const player = await newPlayer();
      const profile = await profileClient(player.profileId, { baseUrl: baseProxy.url });
      const started = Date.now();
      const wallets = await Promise.all(Array.from({ length: 8 }, () => profile.wallets.get(player.walletId)));
      expect(wallets.every((wallet) => wallet.id === player.walletId)).toBe(true);
      // 5 pass at once; the others were refused, waited Retry-After (1 s) and came back.
      expect(baseProxy.received.length).toBeGreaterThan(8);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    });
  });

  describe('retries of 503 (a proxy in front of the gateway answers 503 + Retry-After once)', () => {
    it('retries players.create after Retry-After and returns the player', async () => {
      coreProxy.failNext = 1;
      const started = Date.now();
      const { player, created } = await proxied.players.create({ uniqueId: `retried-${Math.random()}` });
      expect(created).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(coreProxy.received).toEqual(['POST /v1/player/create', 'POST /v1/player/create']);
      coreProxy.failNext = 1;
      await expect(proxied.players.get(player.id)).resolves.toEqual(player);
      expect(coreProxy.received).toHaveLength(4);
    });

    it('retries profiles.revoke and wallets.get', async () => {
      const player = await newPlayer();
      baseProxy.failNext = 1;
      await expect(proxied.profiles.revoke(player.profileId)).resolves.toBeUndefined();
      baseProxy.failNext = 1;
      await expect(proxied.wallets.get(player.walletId)).resolves.toMatchObject({ id: player.walletId });
      expect(baseProxy.received).toEqual([
        `POST /v1/profile/${player.profileId}/revoke`,
        `POST /v1/profile/${player.profileId}/revoke`,
        `GET /v1/wallet/${player.walletId}`,
        `GET /v1/wallet/${player.walletId}`,
      ]);
    });

    it('retries wallets.sign and profiles.authenticate with the same Idempotency-Key, a new one for each call', async () => {
      const player = await newPlayer();
      baseProxy.failNext = 1;
      await expect(proxied.wallets.sign(player.walletId, { chain: 'sol', message: 'once' })).resolves.toMatchObject({ chain: 'sol' });
      baseProxy.failNext = 1;
      await expect(proxied.profiles.authenticate(player.profileId)).resolves.toMatchObject({ jwt: expect.any(String) });
      const sign = `POST /v1/wallet/${player.walletId}/sign`;
      const authenticate = `POST /v1/profile/${player.profileId}/authenticate`;
      expect(baseProxy.received).toEqual([sign, sign, authenticate, authenticate]);
      const keys = baseProxy.headers.map((headers) => headers['idempotency-key']);
      expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
      expect(keys).toEqual([keys[0], keys[0], keys[2], keys[2]]);
      expect(keys[2]).not.toBe(keys[0]);
    });
  });

  describe("Idempotency-Key (the proxy passes a write on, then loses the platform's answer once)", () => {
    const outcomes = (proxy: FrontProxy) => proxy.answers.map((answer) => [answer.status, answer.replayed]);

    it('retries profiles.authenticate with the same key and gets the kept answer: the one token the platform issued', async () => {
      const player = await newPlayer();
      baseProxy.loseNextAnswers = 1;
      const issued = await proxied.profiles.authenticate(player.profileId);
      expect(outcomes(baseProxy)).toEqual([
        [200, false],
        [200, true],
      ]);
      expect(issued.jwt).toBe((JSON.parse(baseProxy.answers[0].body) as { jwt: string }).jwt);
      const keys = baseProxy.headers.map((headers) => headers['idempotency-key']);
      expect(keys).toEqual([keys[0], keys[0]]);
    });

    it('retries players.create and says created: true, as the kept 201 does', async () => {
      coreProxy.loseNextAnswers = 1;
      const { player, created } = await proxied.players.create({ uniqueId: `lost-answer-${Math.random()}` });
      expect(created).toBe(true);
      expect(outcomes(coreProxy)).toEqual([
        [201, false],
        [201, true],
      ]);
      expect((JSON.parse(coreProxy.answers[0].body) as { id: string }).id).toBe(player.id);
    });

    it("replays a caller's key with the same body, and refuses it with another body: 422 IDEMPOTENCY_KEY_REUSED, not retried", async () => {
      const player = await newPlayer();
      const idempotencyKey = `reward-${Math.random()}`;
      const first = await proxied.wallets.sign(player.walletId, { chain: 'evm', message: 'reward 1' }, { idempotencyKey });
      await expect(proxied.wallets.sign(player.walletId, { chain: 'evm', message: 'reward 1' }, { idempotencyKey })).resolves.toEqual(first);
      const reused = await failure(proxied.wallets.sign(player.walletId, { chain: 'evm', message: 'reward 2' }, { idempotencyKey }));
      expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(outcomes(baseProxy)).toEqual([
        [200, false],
        [200, true],
        [422, false],
      ]);
    });
  });

  describe('signed requests (an API key that requires them on every route)', () => {
    let signedGame: GameFixture;
    let ed25519: WebCryptoRequestSigner;
    let p256: WebCryptoRequestSigner;
    let hostProxy: FrontProxy;
    const signedClient = (requestSigner: RequestSigner | undefined, baseUrl = platform.baseUrl) =>
      new GameWallet({ baseUrl, coreUrl: platform.coreUrl, apiKey: signedGame.key, requestSigner });

    beforeAll(async () => {
      const token = await consoleToken(platform);
      await stepUp(platform, token);
      signedGame = await createGame(platform, token, 'Signed SDK game');
      ed25519 = await requestSignerFromPem(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
      const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
      p256 = await requestSignerFromCryptoKey(pair.privateKey, pair.publicKey);
      // Registered and required through the SDK's console client.
      const operator = GameWallet.forConsole({ baseUrl: platform.baseUrl, token });
      for (const [name, signer] of [['ed25519', ed25519], ['p-256', p256]] as const) {
        await expect(operator.apiKeys.addSigningKey(signedGame.gameId, signedGame.keyId, { name, publicKey: signer.publicJwk })).resolves.toMatchObject({ id: signer.keyId, name });
      }
      await expect(operator.apiKeys.update(signedGame.gameId, signedGame.keyId, { signedRequests: 'all' })).resolves.toMatchObject({ signedRequests: 'all' });
      const listed = await operator.apiKeys.list(signedGame.gameId);
      expect(listed.items.find((key) => key.id === signedGame.keyId)?.signingKeys.map((key) => key.id).sort()).toEqual([ed25519.keyId, p256.keyId].sort());
      hostProxy = await FrontProxy.start(platform.baseUrl, { preserveHost: true });
    });

    afterAll(async () => {
      await hostProxy?.close();
    });

    it.each([['Ed25519', () => ed25519], ['P-256', () => p256]])('takes every call signed with %s: reads, writes with and without a body', async (_, signer) => {
      const client = signedClient(signer());
      const { player } = await client.players.create({ uniqueId: `signed-${Math.random()}`, userData: { name: 'Zoë ✓' } });
      await expect(client.players.get(player.id)).resolves.toMatchObject({ id: player.id, userData: { name: 'Zoë ✓' } });
      await expect(client.wallets.get(player.walletId, { include: 'profile', chain: 'sui' })).resolves.toMatchObject({ id: player.walletId });
      await expect(client.wallets.sign(player.walletId, { chain: 'evm', message: 'signed request' })).resolves.toMatchObject({ chain: 'evm' });
      await expect(client.profiles.authenticate(player.profileId, { duration: 60 })).resolves.toMatchObject({ jwt: expect.any(String) });
      await expect(client.profiles.revoke(player.profileId)).resolves.toBeUndefined();
    });

    it('refuses the same calls unsigned: 401 SIGNATURE_REQUIRED', async () => {
      const { player } = await signedClient(ed25519).players.create({ uniqueId: `unsigned-${Math.random()}` });
      const unsigned = signedClient(undefined);
      expect(await failure(unsigned.wallets.get(player.walletId))).toMatchObject({ status: 401, code: 'SIGNATURE_REQUIRED' });
      expect(await failure(unsigned.wallets.sign(player.walletId, { chain: 'evm', message: 'm' }))).toMatchObject({ status: 401, code: 'SIGNATURE_REQUIRED' });
    });

    it("signs each attempt anew: the retry after a lost answer has a new nonce, which the platform takes, and gets the kept answer", async () => {
      const { player } = await signedClient(ed25519).players.create({ uniqueId: `signed-retry-${Math.random()}` });
      hostProxy.loseNextAnswers = 1;
      const issued = await signedClient(ed25519, hostProxy.url).profiles.authenticate(player.profileId);
      expect(hostProxy.answers.map((answer) => [answer.status, answer.replayed])).toEqual([
        [200, false],
        [200, true],
      ]);
      expect(issued.jwt).toBe((JSON.parse(hostProxy.answers[0].body) as { jwt: string }).jwt);
      const [first, second] = hostProxy.headers.map((headers) => String(headers['signature-input']));
      expect(/nonce="([^"]+)"/.exec(first)?.[1]).not.toBe(/nonce="([^"]+)"/.exec(second)?.[1]);
      hostProxy.reset();
    });
  });

  describe('aborts and timeouts', () => {
    it('sends nothing for a signal aborted before the call', async () => {
      const error = await failure(proxied.players.create({ uniqueId: 'never-sent' }, { signal: AbortSignal.abort() }));
      expect([error.status, error.code]).toEqual([0, 'ABORTED']);
      await expect(proxied.wallets.get('w', {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
      expect([...coreProxy.received, ...baseProxy.received]).toEqual([]);
    });

    it('abandons a call in flight when its signal fires', async () => {
      const player = await newPlayer();
      baseProxy.delayMs = 5000;
      const controller = new AbortController();
      const started = Date.now();
      const pending = failure(proxied.wallets.get(player.walletId, {}, { signal: controller.signal }));
      await waitFor(() => baseProxy.received.length === 1, 5000, 'the request to reach the proxy');
      controller.abort();
      expect((await pending).code).toBe('ABORTED');
      expect(Date.now() - started).toBeLessThan(4000);
      expect(baseProxy.received).toHaveLength(1);
    });

    it('ends a call that outlasts timeoutMs with TIMEOUT, without retrying it', async () => {
      const player = await newPlayer();
      baseProxy.delayMs = 5000;
      const started = Date.now();
      const error = await failure(proxied.wallets.get(player.walletId, {}, { timeoutMs: 500 }));
      expect([error.status, error.code]).toEqual([0, 'TIMEOUT']);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(baseProxy.received).toHaveLength(1);
    });
  });
});
