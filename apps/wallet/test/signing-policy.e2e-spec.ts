import { AuditEntryView, DEFAULT_SIGNING_POLICY, Page, PlayerView, PolicyRule, SigningPolicy, SigningPolicyView, rulesOfPolicy } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt } from '@game-wallet/testing';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { base58 } from '@scure/base';
import { newId } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { walletDataSourceOptions } from '../src/database/data-source-options';
import { PolicyEventEntity } from '../src/policies/policy-event.entity';
import { SigningPoliciesRepository } from '../src/policies/signing-policies.repository';
import { SigningPolicyEntity } from '../src/policies/signing-policy.entity';

/** A game's signing policy through the console API, enforced on every signing route and recorded in the audit trail. */
describe('signing policy per game', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string };
  let operator: string;
  let game: GameFixture;
  let player: PlayerView;
  let jwt: string;
  let addresses: { evm: string; sol: string; sui: string };
  const blockhash = base58.encode(new Uint8Array(32).fill(9));
  const shop = '0x1111111111111111111111111111111111111111';

  beforeAll(async () => {
    // Many signatures by one wallet in quick succession: the per-wallet signing limit has its own suite (rate-limit).
    platform = await TestPlatform.start('policy', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    second = await platform.startSecondGateway();
    operator = await consoleToken(platform);
    game = await createGame(platform, operator, 'Policy game');
    player = await createPlayer(platform, game.key, 'policy-player');
    jwt = await profileJwt(platform, player.profileId, game.key);
    addresses = (await http<{ addresses: typeof addresses }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })).body.addresses;
  });

  afterAll(async () => {
    await platform.stop();
  });

  const policyUrl = () => `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`;
  const setPolicy = async (change: (policy: SigningPolicy) => SigningPolicy): Promise<void> => {
    const response = await http<SigningPolicy>('PUT', policyUrl(), { bearer: operator, body: change(structuredClone(DEFAULT_SIGNING_POLICY)) });
    expect(response.status).toBe(200);
  };
  const signTransaction = (body: unknown, credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }, baseUrl = platform.baseUrl) =>
    http<{ code?: string; message?: string }>('POST', `${baseUrl}/v1/wallet/${player.walletId}/sign-transaction`, { ...credential, body });
  const evm = (transaction: Record<string, unknown>) => ({ chain: 'evm', transaction: { chainId: 8453, gasLimit: 21000, maxFeePerGas: '1', maxPriorityFeePerGas: '1', ...transaction } });
  const sol = (instruction: TransactionInstruction) =>
    ({ chain: 'sol', transaction: new Transaction({ feePayer: new PublicKey(addresses.sol), recentBlockhash: blockhash }).add(instruction).serialize({ requireAllSignatures: false }).toString('base64') });
  const sui = async (build: (transaction: SuiTransaction) => void) => {
    const transaction = new SuiTransaction();
    transaction.setSender(addresses.sui);
    transaction.setGasPrice(1000);
    transaction.setGasBudget(10_000_000);
    transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
    build(transaction);
    return { chain: 'sui', transaction: Buffer.from(await transaction.build()).toString('base64') };
  };
  const outcome = (response: { status: number; body: { code?: string } }) => (response.status === 200 ? 'allowed' : `${response.status} ${response.body.code}`);

  afterEach(async () => {
    await setPolicy((policy) => policy);
  });

  it('starts from the default policy: API keys sign everything, profile JWTs messages only', async () => {
    expect((await http<SigningPolicyView>('GET', policyUrl(), { bearer: operator })).body.rules).toEqual(rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules);
    expect(outcome(await signTransaction(evm({ to: shop }), { bearer: jwt }))).toBe('403 POLICY_DENIED');
    expect(outcome(await signTransaction(evm({ to: shop })))).toBe('allowed');
  });

  it('lets profile JWTs sign transactions once allowed, and takes it back within a second on another gateway', async () => {
    await setPolicy((policy) => ({ ...policy, operations: { ...policy.operations, profile: ['message', 'transaction'] } }));
    expect(outcome(await signTransaction(evm({ to: shop }), { bearer: jwt }, second.baseUrl))).toBe('allowed');
    await setPolicy((policy) => policy);
    const changed = Date.now();
    let answer = '';
    while (Date.now() - changed < 1000 && answer !== '403 POLICY_DENIED') {
      answer = outcome(await signTransaction(evm({ to: shop }), { bearer: jwt }, second.baseUrl));
    }
    expect(answer).toBe('403 POLICY_DENIED');
    expect(Date.now() - changed).toBeLessThan(1000);
  });

  it('limits API keys by operation too', async () => {
    await setPolicy((policy) => ({ ...policy, operations: { apiKey: ['message'], profile: ['message'] } }));
    const typed = await http<{ code: string; message: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-typed-data`, {
      apiKey: game.key,
      body: { domain: { chainId: 1 }, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: 'x' } },
    });
    expect([typed.status, typed.body.code, typed.body.message]).toEqual([403, 'POLICY_DENIED', "The game's signing policy refuses this: no rule accepts typed data on evm from an API key"]);
  });

  it('evm: allowed chain ids, the value cap and allowed addresses (contract creation refused when set)', async () => {
    await setPolicy((policy) => ({ ...policy, evm: { ...policy.evm, chainIds: ['8453'], maxValueWei: '100', contracts: [shop] } }));
    expect(outcome(await signTransaction(evm({ to: shop, value: '100' })))).toBe('allowed');
    const wrongChain = await signTransaction(evm({ chainId: 1, to: shop }));
    expect([outcome(wrongChain), wrongChain.body.message]).toEqual(['403 POLICY_DENIED', `The game's signing policy refuses this: no rule accepted this; in rule apiKey-transaction-evm, "the chain id is in [8453]" does not hold (observed: chain id 1)`]);
    expect(outcome(await signTransaction(evm({ to: shop, value: '101' })))).toBe('403 POLICY_DENIED');
    expect(outcome(await signTransaction(evm({ to: '0x2222222222222222222222222222222222222222' })))).toBe('403 POLICY_DENIED');
    expect(outcome(await signTransaction(evm({ data: '0x6080' })))).toBe('403 POLICY_DENIED');
  });

  it('sol: allowed programs and the lamports System transfers may move', async () => {
    const program = Keypair.generate().publicKey;
    const wallet = new PublicKey(addresses.sol);
    await setPolicy((policy) => ({ ...policy, sol: { ...policy.sol, programs: [SystemProgram.programId.toBase58()], maxLamports: '1000' } }));
    expect(outcome(await signTransaction(sol(SystemProgram.transfer({ fromPubkey: wallet, toPubkey: program, lamports: 1000 }))))).toBe('allowed');
    expect(outcome(await signTransaction(sol(SystemProgram.transfer({ fromPubkey: wallet, toPubkey: program, lamports: 1001 }))))).toBe('403 POLICY_DENIED');
    const call = await signTransaction(sol(new TransactionInstruction({ programId: program, keys: [{ pubkey: wallet, isSigner: true, isWritable: false }], data: Buffer.from('x') })));
    expect([outcome(call), call.body.message]).toEqual(['403 POLICY_DENIED', `The game's signing policy refuses this: no rule accepted this; in rule apiKey-transaction-sol, "every program is in [${SystemProgram.programId.toBase58()}]" does not hold (observed: program ${program.toBase58()} is not listed)`]);
  });

  it('sui: allowed Move packages, and whether coins may be split and transferred', async () => {
    await setPolicy((policy) => ({ ...policy, sui: { ...policy.sui, packages: ['0x2'], allowTransfers: false } }));
    const clock = (packageId: string) => (transaction: SuiTransaction) => {
      transaction.moveCall({ target: `${packageId}::clock::timestamp_ms`, arguments: [transaction.object.clock()] });
    };
    expect(outcome(await signTransaction(await sui(clock('0x2'))))).toBe('allowed');
    expect(outcome(await signTransaction(await sui(clock('0x3'))))).toBe('403 POLICY_DENIED');
    const split = await signTransaction(await sui((transaction) => transaction.splitCoins(transaction.gas, [1])));
    expect([outcome(split), split.body.message]).toEqual(['403 POLICY_DENIED', `The game's signing policy refuses this: no rule accepted this; in rule apiKey-transaction-sui, "no transfer of coins or objects" does not hold (observed: SplitCoins)`]);
  });

  it('records allowed and denied attempts in the audit trail, with operation, chain, hash and credential', async () => {
    const audit = await http<Page<AuditEntryView>>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/audit?limit=100`, { bearer: operator });
    const signing = audit.body.items.filter((entry) => entry.action.startsWith('wallet.sign'));
    const denied = signing.filter((entry) => entry.action === 'wallet.signing_denied');
    const allowed = signing.filter((entry) => entry.action === 'wallet.signed');
    expect(denied.length).toBeGreaterThanOrEqual(10);
    expect(allowed.length).toBeGreaterThanOrEqual(5);
    expect(denied.find((entry) => entry.actor.startsWith('profile:'))?.details).toMatchObject({ chain: 'evm', operation: 'transaction', decision: 'denied' });
    expect(new Set(signing.map((entry) => entry.details.chain))).toEqual(new Set(['evm', 'sol', 'sui']));
    expect(signing.every((entry) => /^[0-9a-f]{64}$/.test(String(entry.details.messageSha256)))).toBe(true);
  });

  it('refuses a policy with a wrong field with 400 naming it, and an unknown game with 404', async () => {
    const wrong = await http<{ code: string; message: string }>('PUT', policyUrl(), { bearer: operator, body: { ...DEFAULT_SIGNING_POLICY, evm: { ...DEFAULT_SIGNING_POLICY.evm, maxValueWei: 'lots' } } });
    expect([wrong.status, wrong.body.code, wrong.body.message]).toEqual([400, 'VALIDATION_FAILED', 'evm.maxValueWei: must be a whole number in decimal digits']);
    const unknown = await http<{ code: string }>('GET', `${platform.baseUrl}/v1/console/games/0190a0a0-0000-7000-8000-000000000000/signing-policy`, { bearer: operator });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'GAME_NOT_FOUND']);
  });

  /** The game's audit trail through the console API, every page of `limit` entries followed to the end. */
  const auditOf = async (gameId: string, limit = 100): Promise<AuditEntryView[]> => {
    const entries: AuditEntryView[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { status: number; body: Page<AuditEntryView> } = await http<Page<AuditEntryView>>('GET', `${platform.baseUrl}/v1/console/games/${gameId}/audit?limit=${limit}&cursor=${cursor}`, { bearer: operator });
      expect(page.status).toBe(200);
      entries.push(...page.body.items);
      cursor = page.body.nextCursor;
    }
    return entries;
  };
  const operatorId = async (): Promise<string> => (await http<{ operator: { id: string } }>('GET', `${platform.baseUrl}/v1/console/session`, { bearer: operator })).body.operator.id;

  it('audits every policy change with the operator, their address, the rules before and after and what changed, newest first in the console audit', async () => {
    const audited = await createGame(platform, operator, 'Audited policy game');
    const url = `${platform.baseUrl}/v1/console/games/${audited.gameId}/signing-policy`;
    const first: SigningPolicy = { ...DEFAULT_SIGNING_POLICY, operations: { ...DEFAULT_SIGNING_POLICY.operations, profile: ['message', 'transaction'] }, evm: { ...DEFAULT_SIGNING_POLICY.evm, maxValueWei: '1000' } };
    const second: SigningPolicy = { ...first, evm: { ...first.evm, maxFeeWei: '21000000000000' }, sui: { ...first.sui, maxGasBudget: '50000000' } };
    expect((await http('PUT', url, { bearer: operator, body: first })).status).toBe(200);
    // A signature between the two changes: the wallet's two kinds of entries come back merged in time order.
    expect((await http('POST', `${platform.baseUrl}/v1/wallet/${(await createPlayer(platform, audited.key, 'audited-player')).walletId}/sign`, { apiKey: audited.key, body: { chain: 'evm', message: 'between' } })).status).toBe(200);
    expect((await http('PUT', url, { bearer: operator, body: second })).status).toBe(200);

    const entries = await auditOf(audited.gameId);
    expect(entries.map((entry) => entry.action)).toEqual(['signing_policy.updated', 'wallet.signed', 'signing_policy.updated', 'api_key.created', 'game.created']);
    const [latest, , earliest] = entries;
    for (const entry of [latest, earliest]) {
      expect(entry).toMatchObject({ actor: `operator:${await operatorId()}`, target: `game:${audited.gameId}` });
      expect(entry.details.ip).toBe('127.0.0.1');
    }
    const rules = (policy: SigningPolicy) => rulesOfPolicy(policy).rules;
    expect([earliest.details.before, earliest.details.after]).toEqual([rules(DEFAULT_SIGNING_POLICY), rules(first)]);
    expect([latest.details.before, latest.details.after]).toEqual([rules(first), rules(second)]);
    expect([earliest.details.version, latest.details.version]).toEqual([1, 2]);
    expect(latest.details.difference).toEqual({ added: [], removed: [], changed: ['apiKey-transaction-evm', 'apiKey-transaction-sui', 'profile-transaction-evm', 'profile-transaction-sui'], reordered: false });
    // The same entries a page of one at a time: each cursor continues after the entry before it, across both services.
    expect(await auditOf(audited.gameId, 1)).toEqual(entries);
  });

  it('records the right "before" for each of concurrent policy changes made through the console API', async () => {
    const raced = await createGame(platform, operator, 'Raced policy game');
    const url = `${platform.baseUrl}/v1/console/games/${raced.gameId}/signing-policy`;
    const policies = Array.from({ length: 16 }, (_, index) => index + 1).map((n): SigningPolicy => ({ ...DEFAULT_SIGNING_POLICY, evm: { ...DEFAULT_SIGNING_POLICY.evm, maxValueWei: String(n) } }));
    // Read first, as the console does: the PUTs then reach the wallet together, before the game has a stored policy.
    expect((await http<SigningPolicyView>('GET', url, { bearer: operator })).body.version).toBe(0);
    const answers = await Promise.all(policies.map((policy) => http('PUT', url, { bearer: operator, body: policy })));
    expect(answers.map((answer) => answer.status)).toEqual(policies.map(() => 200));

    const changes = (await auditOf(raced.gameId)).filter((entry) => entry.action === 'signing_policy.updated').reverse();
    expect(changes).toHaveLength(policies.length);
    // Oldest first, each change starts from the policy the one before it left, and the last one is what is stored.
    expect(changes.map((change) => change.details.before)).toEqual([rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules, ...changes.slice(0, -1).map((change) => change.details.after)]);
    const valueCap = (rules: PolicyRule[]) => (rules.find((rule) => rule.id === 'apiKey-transaction-evm')?.criteria[0] as { value?: string } | undefined)?.value;
    expect(new Set(changes.map((change) => valueCap(change.details.after as PolicyRule[])))).toEqual(new Set(policies.map((policy) => policy.evm.maxValueWei)));
    expect(changes.map((change) => change.details.version)).toEqual(policies.map((_, index) => index + 1));
    expect((await http<SigningPolicyView>('GET', url, { bearer: operator })).body.rules).toEqual(changes[changes.length - 1].details.after);
  });

  it('saves concurrent first policies of a game one after another, each change recording the one before (straight against PostgreSQL)', async () => {
    // Through the gateway the requests reach the wallet a few milliseconds apart; here they all start their
    // transactions before any commits, while the game has no stored policy yet.
    const dataSource = await new DataSource(walletDataSourceOptions(platform.databaseUrl)).initialize();
    try {
      const repository = new SigningPoliciesRepository(dataSource.getRepository(SigningPolicyEntity), dataSource.getRepository(PolicyEventEntity));
      const gameId = newId();
      const policies = Array.from({ length: 8 }, (_, index): PolicyRule[] => [{ id: `r${index + 1}`, action: 'accept', operation: 'message', criteria: [] }]);
      await Promise.all(
        policies.map((rules) =>
          repository.addVersion(gameId, {
            rules,
            createdBy: 'system',
            origin: 'put',
            firstShape: DEFAULT_SIGNING_POLICY,
            eventOf: (replaced, version) => ({ id: newId(), applicationId: gameId, at: new Date(), actor: 'system', action: 'signing_policy.updated', target: `game:${gameId}`, details: { version, before: replaced.rules, after: rules } }),
          }),
        ),
      );
      const changes = (await repository.listEvents(gameId, 100)).reverse();
      expect(changes.map((change) => change.details.before)).toEqual([null, ...changes.slice(0, -1).map((change) => change.details.after)]);
      expect(changes.map((change) => change.details.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect((await repository.find(gameId)).rules).toEqual(changes[changes.length - 1].details.after);
    } finally {
      await dataSource.destroy();
    }
  });
});
