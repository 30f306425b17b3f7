import { AuditEntryView, EvmSignedTransactionView, Page, PlayerView, SignatureView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt } from '@game-wallet/testing';
import { ethers } from 'ethers';

/** EVM transactions and EIP-712 typed data signed through the API, read back by ethers as a wallet app would. */
describe('EVM transaction and typed-data signing, verified by ethers', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let other: GameFixture;
  let operator: string;
  let player: PlayerView;
  let address: string;

  beforeAll(async () => {
    // Many signatures by one wallet in quick succession: the per-wallet signing limit has its own suite (rate-limit).
    platform = await TestPlatform.start('evmsign', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    operator = await consoleToken(platform);
    [game, other] = await Promise.all([createGame(platform, operator, 'EVM game'), createGame(platform, operator, 'Other game')]);
    player = await createPlayer(platform, game.key, 'evm-signer');
    address = (await http<{ addresses: { evm: string } }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })).body.addresses.evm;
  });

  afterAll(async () => {
    await platform.stop();
  });

  const signTransaction = (transaction: unknown, credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }, walletId = player.walletId) =>
    http<EvmSignedTransactionView & { code?: string; message?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign-transaction`, {
      ...credential,
      body: { chain: 'evm', transaction },
    });

  it('signs an EIP-1559 transfer that ethers parses back to the wallet, chain and fields', async () => {
    const to = ethers.Wallet.createRandom().address;
    const response = await signTransaction({ chainId: 8453, nonce: 7, to, value: '1000000000000000000', gasLimit: '21000', maxFeePerGas: '0x59682f00', maxPriorityFeePerGas: '1000000000' });
    expect(response.status).toBe(200);
    const parsed = ethers.Transaction.from(response.body.signedTransaction);
    expect(parsed).toMatchObject({ type: 2, chainId: 8453n, nonce: 7, to, value: 10n ** 18n, gasLimit: 21000n, maxFeePerGas: 1_500_000_000n, maxPriorityFeePerGas: 10n ** 9n });
    expect(parsed.from).toBe(address);
    expect(response.body).toEqual({ chain: 'evm', address, signedTransaction: response.body.signedTransaction, hash: parsed.hash });
  });

  it('signs a legacy (EIP-155) transaction when gasPrice is given, its chain id in v', async () => {
    const to = ethers.Wallet.createRandom().address;
    const response = await signTransaction({ chainId: '0x89', nonce: '0', to, value: '5', gasLimit: 21000, gasPrice: '30000000000' });
    const parsed = ethers.Transaction.from(response.body.signedTransaction);
    expect(parsed).toMatchObject({ type: 0, chainId: 137n, gasPrice: 30_000_000_000n, value: 5n });
    expect(parsed.from).toBe(address);
    expect(parsed.signature?.networkV).toBe(137n * 2n + 35n + BigInt(parsed.signature?.yParity ?? 0));
  });

  it('signs a contract creation with large data and an access list', async () => {
    const data = `0x${'60806040'.repeat(7_000)}`; // 28 KB of init code
    const accessList = [{ address: ethers.Wallet.createRandom().address, storageKeys: [`0x${'00'.repeat(31)}01`] }];
    const response = await signTransaction({ chainId: 1, nonce: 1, data, gasLimit: '3000000', maxFeePerGas: '1', maxPriorityFeePerGas: '1', accessList });
    expect(response.status).toBe(200);
    const parsed = ethers.Transaction.from(response.body.signedTransaction);
    expect(parsed.to).toBeNull();
    expect(parsed.data).toBe(data);
    expect(parsed.accessList).toEqual(accessList);
    expect(parsed.from).toBe(address);
  });

  const mail = {
    domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    message: {
      from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
      to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      contents: 'Hello, Bob!',
    },
  };

  it('signs EIP-712 typed data that ethers.verifyTypedData attributes to the wallet', async () => {
    const response = await http<SignatureView>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-typed-data`, { apiKey: game.key, body: mail });
    expect(response.status).toBe(200);
    expect(response.body.signature).toMatch(/^0x[0-9a-f]{130}$/);
    const { EIP712Domain: _domain, ...types } = mail.types;
    expect(ethers.verifyTypedData(mail.domain, types, mail.message, response.body.signature)).toBe(address);
    expect(response.body).toEqual({ chain: 'evm', address, signature: response.body.signature });
  });

  it("refuses a profile JWT with 403 POLICY_DENIED under the default policy (game clients sign messages only)", async () => {
    const jwt = await profileJwt(platform, player.profileId, game.key);
    const transaction = await signTransaction({ chainId: 1, to: address }, { bearer: jwt });
    const typed = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-typed-data`, { bearer: jwt, body: mail });
    expect([transaction.status, transaction.body.code, typed.status, typed.body.code]).toEqual([403, 'POLICY_DENIED', 403, 'POLICY_DENIED']);
  });

  it.each([
    ['an address that is not one', { chainId: 1, to: '0x1234' }, /^transaction\.to: must be a 0x-prefixed 20-byte hex address/],
    ['no chain id', { to: null }, /^transaction\.chainId/],
    ['chain id 0 (no replay protection)', { chainId: 0 }, /^transaction\.chainId: must be a chain id/],
    ['an unknown field', { chainId: 1, gas: 21000 }, /^transaction: unknown field gas/],
    ['odd-length data', { chainId: 1, data: '0xabc' }, /^transaction\.data: must be 0x-prefixed hex bytes/],
  ])('refuses %s with 400 VALIDATION_FAILED naming the field', async (_, transaction, message) => {
    const response = await signTransaction(transaction);
    expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(response.body.message).toMatch(message);
  });

  it('refuses typed data whose primary type is not defined, or whose message does not fit its types', async () => {
    const missing = await http<{ code: string; message: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-typed-data`, { apiKey: game.key, body: { ...mail, primaryType: 'Letter' } });
    expect([missing.status, missing.body.code, missing.body.message]).toEqual([400, 'VALIDATION_FAILED', 'primaryType: Letter is not among the types']);
    const wrong = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-typed-data`, {
      apiKey: game.key,
      body: { ...mail, message: { ...mail.message, to: { name: 'Bob', wallet: 'not an address' } } },
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it("answers 404 for an unknown wallet and 403 for another game's, after validation", async () => {
    const unknown = await signTransaction({ chainId: 1 }, { apiKey: game.key }, '0190a0a0-0000-7000-8000-000000000000');
    const foreign = await signTransaction({ chainId: 1 }, { apiKey: other.key });
    expect([unknown.status, unknown.body.code, foreign.status, foreign.body.code]).toEqual([404, 'WALLET_NOT_FOUND', 403, 'FORBIDDEN']);
  });

  it('records each signature in the audit trail with its operation and the SHA-256 of what was signed', async () => {
    const audit = await http<Page<AuditEntryView>>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/audit?limit=100`, { bearer: operator });
    const signed = audit.body.items.filter((entry) => entry.action === 'wallet.signed');
    const operations = signed.map((entry) => entry.details.operation);
    expect(operations.filter((operation) => operation === 'transaction')).toHaveLength(3);
    expect(operations.filter((operation) => operation === 'typed-data')).toHaveLength(1);
    const { EIP712Domain: _domain, ...types } = mail.types;
    const digest = ethers.TypedDataEncoder.hash(mail.domain, types, mail.message);
    const typed = signed.find((entry) => entry.details.operation === 'typed-data');
    expect(typed?.details.messageSha256).toBe(ethers.sha256(digest).slice(2));
  });
});
