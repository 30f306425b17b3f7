import {
  DEFAULT_SIGNING_POLICY,
  Page,
  PlayerView,
  PolicyDifferenceView,
  PolicyEvaluationView,
  PolicyReplayView,
  PolicyRule,
  SigningPolicyDraftView,
  SigningPolicyVersionView,
  SigningPolicyView,
  rulesOfPolicy,
} from '@game-wallet/contracts';
import { GameFixture, HttpResult, TestPlatform, consoleToken, createGame, createKey, createPlayer, http, waitFor } from '@game-wallet/testing';

type ErrorAnswer = { code: string; message: string; details?: Record<string, unknown> };

/** A game's signing policy as ordered rules through the console API: versions, If-Match, dry runs and the draft. */
describe('signing policy v2 through the console API', () => {
  const shop = '0x1111111111111111111111111111111111111111';
  let platform: TestPlatform;
  /** the console token of the test operator */
  let operator: string;
  /** a game with two API keys (its own and a spare one) and a player */
  let game: GameFixture;
  let spareKey: { key: string; keyId: string };
  let player: PlayerView;

  beforeAll(async () => {
    // Many signatures by one wallet in quick succession: the per-wallet signing limit has its own suite.
    platform = await TestPlatform.start('policyv2', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    operator = await consoleToken(platform);
    game = await createGame(platform, operator, 'Rules game');
    [spareKey, player] = await Promise.all([createKey(platform, operator, game.gameId, 'spare'), createPlayer(platform, game.key, 'rules-player')]);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const policyUrl = (gameId = game.gameId, path = '') => `${platform.baseUrl}/v1/console/games/${gameId}/signing-policy${path}`;
  const asOperator = (extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ bearer: operator, ...extra });
  const put = (body: unknown, headers: Record<string, string> = {}, gameId = game.gameId) => http<SigningPolicyView & ErrorAnswer>('PUT', policyUrl(gameId), asOperator({ body, headers }));
  const putRules = async (rules: PolicyRule[], gameId = game.gameId): Promise<SigningPolicyView> => {
    const response = await put({ rules }, {}, gameId);
    expect([response.status, response.body]).toEqual([200, expect.objectContaining({ rules })]);
    return response.body;
  };
  const evaluate = (body: Record<string, unknown>, gameId = game.gameId) => http<PolicyEvaluationView & ErrorAnswer>('POST', policyUrl(gameId, '/evaluate'), asOperator({ body }));
  const signMessage = (text: string, apiKey = game.key, walletId = player.walletId) =>
    http<ErrorAnswer>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey, body: { chain: 'evm', message: text } });
  const signEvm = (transaction: Record<string, unknown>, apiKey = game.key) =>
    http<ErrorAnswer>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-transaction`, { apiKey, body: { chain: 'evm', transaction } });
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const evmTransaction = (value: string) => ({ chainId: 8453, nonce: 0, to: shop, value, gasLimit: 21000, maxFeePerGas: '1000', maxPriorityFeePerGas: '1' });
  /** What a refusal's `details` must say, from the dry run's decision. */
  const detailsOf = ({ ruleId, reason, observed }: PolicyEvaluationView) => ({ ruleId, reason, ...(observed === undefined ? {} : { observed }) });
  const answer = (response: HttpResult<ErrorAnswer>) => (response.status === 200 ? '200' : `${response.status} ${response.body.code}`);

  describe('the active policy', () => {
    it('answers version 0, the default policy as rules, with ETag "0"', async () => {
      const response = await http<SigningPolicyView>('GET', policyUrl(), asOperator());
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe('"0"');
      expect(response.body).toEqual({ version: 0, rules: rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules, updatedAt: null, updatedBy: null });
    });

    it('saves rules as version 1 (ETag "1"), and refuses a stale If-Match with 412, changing nothing', async () => {
      const rules: PolicyRule[] = [{ id: 'messages', description: 'Any message', action: 'accept', operation: 'message', criteria: [] }];
      const saved = await put({ rules }, { 'if-match': '"0"' });
      expect(saved.status).toBe(200);
      expect(saved.headers.get('etag')).toBe('"1"');
      expect(saved.body).toEqual({ version: 1, rules, updatedAt: expect.any(String), updatedBy: expect.stringMatching(/^operator:/) });

      const stale = await put({ rules: [] }, { 'if-match': '"0"' });
      expect([stale.status, stale.body.code]).toEqual([412, 'PRECONDITION_FAILED']);
      expect(stale.body.message).toMatch(/version 1, not 0/);
      const now = await http<SigningPolicyView>('GET', policyUrl(), asOperator());
      expect([now.headers.get('etag'), now.body.version, now.body.rules]).toEqual(['"1"', 1, rules]);

      const current = await put({ rules }, { 'if-match': '"1"' });
      expect([current.status, current.headers.get('etag')]).toEqual([200, '"2"']);
      const any = await put({ rules }, { 'if-match': '*' });
      expect([any.status, any.headers.get('etag')]).toEqual([200, '"3"']);
    });

    it.each([['W/"3"'], ['3'], ['"3", "4"'], ['"three"']])('refuses If-Match %p with 400 before anything changes', async (ifMatch) => {
      const response = await put({ rules: [] }, { 'if-match': ifMatch });
      expect([response.status, response.body.code, response.body.message]).toEqual([400, 'VALIDATION_FAILED', 'If-Match: must be the ETag a GET answered (a version in quotes, e.g. "3") or *']);
      expect((await http<SigningPolicyView>('GET', policyUrl(), asOperator())).body.version).toBe(3);
    });

    it('still takes the first policy shape (deprecated), and answers it as the rules it was converted to', async () => {
      const first = { ...DEFAULT_SIGNING_POLICY, operations: { apiKey: ['message', 'transaction'], profile: [] }, evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['8453'] } };
      const response = await put(first);
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe('"4"');
      expect(response.body.version).toBe(4);
      expect(response.body.rules).toEqual(rulesOfPolicy(first as typeof DEFAULT_SIGNING_POLICY).rules);
      expect(response.body.rules.map((rule) => rule.id)).toEqual(['apiKey-message', 'apiKey-transaction-evm', 'apiKey-transaction-sol', 'apiKey-transaction-sui']);
    });

    it('lists the versions newest first, a page at a time', async () => {
      const seen: SigningPolicyVersionView[] = [];
      let cursor: string | null = null;
      do {
        const page: HttpResult<Page<SigningPolicyVersionView>> = await http<Page<SigningPolicyVersionView>>('GET', `${policyUrl(game.gameId, '/versions')}?limit=3${cursor === null ? '' : `&cursor=${cursor}`}`, asOperator());
        expect(page.status).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(3);
        seen.push(...page.body.items);
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      expect(seen.map(({ version, origin }) => [version, origin])).toEqual([
        [4, 'put-v1'],
        [3, 'put'],
        [2, 'put'],
        [1, 'put'],
      ]);
      expect(seen[3]).toEqual({ version: 1, rules: [{ id: 'messages', description: 'Any message', action: 'accept', operation: 'message', criteria: [] }], createdAt: expect.any(String), createdBy: expect.stringMatching(/^operator:/), origin: 'put' });
      const bad = await http<ErrorAnswer>('GET', `${policyUrl(game.gameId, '/versions')}?cursor=not-a-cursor`, asOperator());
      expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_QUERY']);
    });

    it.each([
      ['a rule id with a space', [{ id: 'my rule', action: 'accept', operation: 'message', criteria: [] }], /^rules\.0\.id: /],
      ['a value that is not decimal', [{ id: 'r', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '1e18' }] }], /^rules\.0\.criteria\.0\.value: must be a whole number in decimal digits$/],
      ['an unknown criterion', [{ id: 'r', action: 'accept', operation: 'message', criteria: [{ type: 'btcValue' }] }], /^rules\.0\.criteria\.0\.type: not a criterion type$/],
      ['velocity without a maximum', [{ id: 'r', action: 'accept', operation: 'message', criteria: [{ type: 'velocity', scope: 'wallet', windowSeconds: 60 }] }], /^rules\.0\.criteria\.0: needs maxCount, maxValue or both$/],
      // Checked by the wallet service, passed through as they come.
      ['a criterion that reads another operation', [{ id: 'r', action: 'accept', operation: 'message', criteria: [{ type: 'evmValue', operator: '<=', value: '1' }] }], /^rules\.0 \(r\)\.criteria\.0 \(evmValue\): reads transaction, not the rule's message$/],
      ['velocity in a reject rule', [{ id: 'r', action: 'reject', operation: 'message', criteria: [{ type: 'velocity', scope: 'wallet', windowSeconds: 60, maxCount: 1 }] }], /^rules\.0 \(r\)\.criteria\.0 \(velocity\): a velocity limit belongs to an accept rule/],
      ['two rules with one id', [{ id: 'r', action: 'accept', operation: 'message', criteria: [] }, { id: 'r', action: 'reject', operation: 'message', criteria: [] }], /^rules\.1 \(r\): id r is used by an earlier rule$/],
    ])('refuses %s with 400 naming the field', async (_, rules, message) => {
      for (const path of ['', '/draft']) {
        const response = await http<ErrorAnswer>('PUT', policyUrl(game.gameId, path), asOperator({ body: { rules } }));
        expect([path, response.status, response.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
        expect(response.body.message).toMatch(message);
      }
      expect((await http<SigningPolicyView>('GET', policyUrl(), asOperator())).body.version).toBe(4);
    });

    it('answers 404 GAME_NOT_FOUND for a game that does not exist, on every route', async () => {
      const missing = '0190a0a0-0000-7000-8000-000000000000';
      const calls: [string, string, unknown?][] = [
        ['GET', ''],
        ['PUT', '', { rules: [] }],
        ['GET', '/versions'],
        ['POST', '/evaluate', { operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, payload: base64('hi') }],
        ['GET', '/draft'],
        ['PUT', '/draft', { rules: [] }],
        ['DELETE', '/draft'],
        ['GET', '/draft/differences'],
        ['POST', '/draft/replay', {}],
        ['POST', '/draft/activate'],
      ];
      for (const [method, path, body] of calls) {
        const response = await http<ErrorAnswer>(method, policyUrl(missing, path), asOperator({ body }));
        expect([method, path, response.status, response.body.code]).toEqual([method, path, 404, 'GAME_NOT_FOUND']);
      }
    });
  });

  describe('dry runs, and what signing then does', () => {
    const rules = (): PolicyRule[] => [
      { id: 'no-spare-key', action: 'reject', operation: 'transaction', credentials: { apiKeyIds: [spareKey.keyId] }, criteria: [] },
      { id: 'no-transfer-talk', action: 'reject', operation: 'message', criteria: [{ type: 'messagePattern', pattern: '^transfer', match: true }] },
      { id: 'short-messages', action: 'accept', operation: 'message', credentials: { kinds: ['apiKey'] }, criteria: [{ type: 'messageLength', operator: '<=', value: '16' }] },
      { id: 'evm-from-keys', action: 'accept', operation: 'transaction', chains: ['evm'], credentials: { kinds: ['apiKey'] }, criteria: [] },
    ];

    beforeAll(async () => {
      await putRules(rules());
    });

    it('messages: the decision, its rule, why and the facts read, as signing then decides (200, or 403 with the same details)', async () => {
      const cases = [
        ['hello', 'accept', 'short-messages'],
        ['a message far longer than sixteen bytes', 'reject', null],
        ['transfer 10 gold', 'reject', 'no-transfer-talk'],
      ] as const;
      for (const [text, decision, ruleId] of cases) {
        const dryRun = await evaluate({ operation: 'message', chain: 'evm', credential: { kind: 'apiKey', apiKeyId: game.keyId }, walletId: player.walletId, payload: base64(text) });
        expect(dryRun.status).toBe(200);
        expect(dryRun.body).toMatchObject({ decision, ruleId, reason: expect.any(String), version: 5, facts: { operation: 'message', chain: 'evm', length: Buffer.byteLength(text) } });
        const signed = await signMessage(text);
        if (decision === 'accept') {
          expect([text, answer(signed)]).toEqual([text, '200']);
        } else {
          expect([text, answer(signed)]).toEqual([text, '403 POLICY_DENIED']);
          expect(signed.body.details).toEqual(detailsOf(dryRun.body));
          expect(Object.keys(signed.body).sort()).toEqual(['code', 'details', 'message']);
        }
      }
      const long = await evaluate({ operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, payload: base64('a message far longer than sixteen bytes') });
      expect(long.body).toMatchObject({ reason: 'no rule accepted this; in rule short-messages, "the length is at most 16 bytes" does not hold', observed: '39 bytes' });
      const profile = await evaluate({ operation: 'message', chain: 'sol', credential: { kind: 'profile' }, payload: base64('hi') });
      expect(profile.body).toMatchObject({ decision: 'reject', ruleId: null, reason: 'no rule accepts messages on sol from a profile JWT' });
    });

    it('EVM transactions: the decision and the facts read, as signing then decides', async () => {
      const accepted = await evaluate({ operation: 'transaction', chain: 'evm', credential: { kind: 'apiKey', apiKeyId: game.keyId }, walletId: player.walletId, payload: evmTransaction('10') });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ decision: 'accept', ruleId: 'evm-from-keys', reason: 'rule evm-from-keys accepts this', version: 5, facts: { operation: 'transaction', chain: 'evm' } });
      expect(answer(await signEvm(evmTransaction('10')))).toBe('200');

      const refused = await evaluate({ operation: 'transaction', chain: 'evm', credential: { kind: 'apiKey', apiKeyId: spareKey.keyId }, payload: evmTransaction('10') });
      expect(refused.body).toMatchObject({ decision: 'reject', ruleId: 'no-spare-key', version: 5, facts: { operation: 'transaction', chain: 'evm' } });
      const signed = await signEvm(evmTransaction('10'), spareKey.key);
      expect(answer(signed)).toBe('403 POLICY_DENIED');
      expect(signed.body.details).toEqual(detailsOf(refused.body));
      expect(signed.body.details?.ruleId).toBe('no-spare-key');
    });

    it('EVM transactions: a value criterion decides the dry run as it decides signing', async () => {
      await putRules([{ id: 'small-values', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '1000' }] }]);
      try {
        for (const [value, decision] of [['1000', 'accept'], ['1001', 'reject']] as const) {
          const dryRun = await evaluate({ operation: 'transaction', chain: 'evm', credential: { kind: 'apiKey' }, payload: evmTransaction(value) });
          expect([value, dryRun.body.decision]).toEqual([value, decision]);
          const signed = await signEvm(evmTransaction(value));
          expect([value, answer(signed)]).toEqual([value, decision === 'accept' ? '200' : '403 POLICY_DENIED']);
          if (decision === 'reject') {
            expect(signed.body.details).toEqual(detailsOf(dryRun.body));
          }
        }
      } finally {
        await putRules(rules());
      }
    });

    it.each([
      ['a message that is not base64', { operation: 'message', chain: 'evm', payload: 'hello!' }, 'payload: must be base64'],
      ['an EVM transaction with a field it does not have', { operation: 'transaction', chain: 'evm', payload: { chainId: 1, gas: 1 } }, 'payload: unknown field gas'],
      ['a Solana transaction as an object', { operation: 'transaction', chain: 'sol', payload: { chainId: 1 } }, 'payload: must be a base64 string'],
      ['typed data on sui', { operation: 'typed-data', chain: 'sui', payload: { domain: {}, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: 'x' } } }, 'chain: typed data is signed on evm only'],
      ['a wallet id that is not a UUID', { operation: 'message', chain: 'evm', payload: 'aGk=', walletId: 'w-1' }, 'walletId: must be a UUID'],
    ])('refuses %s with 400 naming the field', async (_, body, message) => {
      const response = await evaluate({ credential: { kind: 'apiKey' }, ...body });
      expect([response.status, response.body.code, response.body.message]).toEqual([400, 'VALIDATION_FAILED', message]);
    });

    it("answers the wallet's own refusals: an unknown wallet, and no draft to evaluate", async () => {
      const unknown = await evaluate({ operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, walletId: '0190a0a0-0000-7000-8000-000000000000', payload: base64('hi') });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'WALLET_NOT_FOUND']);
      const noDraft = await evaluate({ operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, payload: base64('hi'), policy: 'draft' });
      expect([noDraft.status, noDraft.body.code]).toEqual([404, 'NOT_FOUND']);
    });
  });

  describe('the draft', () => {
    let draftGame: GameFixture;
    let draftPlayer: PlayerView;
    const active: PolicyRule[] = [{ id: 'short-messages', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '16' }] }];
    const draft: PolicyRule[] = [{ id: 'tiny-messages', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '3' }] }];
    const draftUrl = (path = '') => policyUrl(draftGame.gameId, `/draft${path}`);

    beforeAll(async () => {
      // A game of its own: the replay counts every signing attempt of the game.
      draftGame = await createGame(platform, operator, 'Draft game');
      draftPlayer = await createPlayer(platform, draftGame.key, 'draft-player');
      await putRules(active, draftGame.gameId);
    });

    it('is shadowed on every signature: the differences are listed, the replay counts them, and it becomes the next version', async () => {
      expect((await http<ErrorAnswer>('GET', draftUrl(), asOperator())).body.code).toBe('NOT_FOUND');
      const saved = await http<SigningPolicyDraftView>('PUT', draftUrl(), asOperator({ body: { rules: draft } }));
      expect([saved.status, saved.body]).toEqual([200, { rules: draft, baseVersion: 1, updatedAt: expect.any(String), updatedBy: expect.stringMatching(/^operator:/) }]);
      expect((await http<SigningPolicyDraftView>('GET', draftUrl(), asOperator())).body).toEqual(saved.body);
      const dryRun = await evaluate({ operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, payload: base64('hello'), policy: 'draft' }, draftGame.gameId);
      expect(dryRun.body).toMatchObject({ decision: 'reject', ruleId: null, version: null });

      // Both accept, the draft refuses twice, both refuse.
      const outcomes = [];
      for (const text of ['hi', 'hello', 'hello again', 'a message longer than sixteen bytes']) {
        outcomes.push(answer(await signMessage(text, draftGame.key, draftPlayer.walletId)));
      }
      expect(outcomes).toEqual(['200', '200', '200', '403 POLICY_DENIED']);

      // The draft is evaluated after each answer: its differences appear shortly after.
      const differences = await waitFor(
        async () => {
          const page = await http<Page<PolicyDifferenceView>>('GET', draftUrl('/differences'), asOperator());
          return page.body.items.length >= 2 ? page.body : undefined;
        },
        10_000,
        "the draft's two differences",
      );
      expect(differences.items).toEqual([
        { attemptId: expect.any(String), at: expect.any(String), walletId: draftPlayer.walletId, operation: 'message', chain: 'evm', active: { decision: 'accept', ruleId: 'short-messages' }, draft: { decision: 'reject', ruleId: null } },
        { attemptId: expect.any(String), at: expect.any(String), walletId: draftPlayer.walletId, operation: 'message', chain: 'evm', active: { decision: 'accept', ruleId: 'short-messages' }, draft: { decision: 'reject', ruleId: null } },
      ]);
      expect(differences.items[0].at >= differences.items[1].at).toBe(true);
      const first = await http<Page<PolicyDifferenceView>>('GET', `${draftUrl('/differences')}?limit=1`, asOperator());
      expect([first.body.items, first.body.nextCursor]).toEqual([[differences.items[0]], expect.any(String)]);
      const second = await http<Page<PolicyDifferenceView>>('GET', `${draftUrl('/differences')}?limit=1&cursor=${first.body.nextCursor}`, asOperator());
      expect([second.body.items, second.body.nextCursor]).toEqual([[differences.items[1]], null]);

      const replay = await http<PolicyReplayView>('POST', draftUrl('/replay'), asOperator({ body: {} }));
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual({ evaluated: 4, changed: 2, newlyRejected: 2, newlyAccepted: 0, undecidable: 0, changes: expect.any(Array) });
      expect(replay.body.changes.map(({ attemptId, active: was, draft: would }) => ({ attemptId, was, would }))).toEqual(
        differences.items.map(({ attemptId }) => ({ attemptId, was: { decision: 'accept', ruleId: 'short-messages' }, would: { decision: 'reject', ruleId: null } })),
      );
      const later = await http<PolicyReplayView>('POST', draftUrl('/replay'), asOperator({ body: { since: new Date(Date.now() + 60_000).toISOString() } }));
      expect(later.body).toMatchObject({ evaluated: 0, changed: 0 });
      const badSince = await http<ErrorAnswer>('POST', draftUrl('/replay'), asOperator({ body: { since: 'yesterday' } }));
      expect([badSince.status, badSince.body.code]).toEqual([400, 'VALIDATION_FAILED']);

      const stale = await http<ErrorAnswer>('POST', draftUrl('/activate'), asOperator({ headers: { 'if-match': '"0"' } }));
      expect([stale.status, stale.body.code]).toEqual([412, 'PRECONDITION_FAILED']);
      const activated = await http<SigningPolicyView>('POST', draftUrl('/activate'), asOperator({ headers: { 'if-match': '"1"' } }));
      expect([activated.status, activated.headers.get('etag'), activated.body.version, activated.body.rules]).toEqual([200, '"2"', 2, draft]);
      expect((await http<ErrorAnswer>('GET', draftUrl(), asOperator())).body.code).toBe('NOT_FOUND');
      expect(answer(await signMessage('hello', draftGame.key, draftPlayer.walletId))).toBe('403 POLICY_DENIED');
      const versions = await http<Page<SigningPolicyVersionView>>('GET', policyUrl(draftGame.gameId, '/versions'), asOperator());
      expect(versions.body.items.map(({ version, origin }) => [version, origin])).toEqual([
        [2, 'draft'],
        [1, 'put'],
      ]);
    });

    it('is deleted, after which it is not found', async () => {
      expect((await http('PUT', draftUrl(), asOperator({ body: { rules: active } }))).status).toBe(200);
      const deleted = await http('DELETE', draftUrl(), asOperator());
      expect([deleted.status, deleted.body]).toEqual([204, undefined]);
      expect((await http<ErrorAnswer>('GET', draftUrl(), asOperator())).body.code).toBe('NOT_FOUND');
      expect((await http<ErrorAnswer>('DELETE', draftUrl(), asOperator())).body.code).toBe('NOT_FOUND');
      expect((await http<ErrorAnswer>('POST', draftUrl('/replay'), asOperator({ body: {} }))).body.code).toBe('NOT_FOUND');
      expect((await http<ErrorAnswer>('POST', draftUrl('/activate'), asOperator())).body.code).toBe('NOT_FOUND');
    });
  });
});
