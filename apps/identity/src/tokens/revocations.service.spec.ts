import { TransportKeys, createFailFastRedis } from '@game-wallet/transport';
import { IdentityConfig } from '../config';
import { RevocationsService } from './revocations.service';

describe(RevocationsService.name, () => {
  // A Redis that cannot be reached: its publish fails as it would while Redis is down or paused.
  const redis = createFailFastRedis('redis://127.0.0.1:1', 'revocations-spec');
  const saved: unknown[] = [];
  const audited: unknown[] = [];
  const manager = { upsert: async (_entity: unknown, row: unknown) => void saved.push(row) };
  const repository = { manager: { transaction: (work: (m: typeof manager) => Promise<void>) => work(manager) } } as never;
  const audit = { record: async (record: unknown) => void audited.push(record) } as never;
  const service = new RevocationsService(repository, repository, repository, redis, { keyPrefix: 'spec' } as IdentityConfig, TransportKeys.random('identity'), audit);

  afterAll(() => redis.disconnect());

  it('saves a revocation first and answers 503 when it cannot tell the gateways (never a silent success)', async () => {
    await expect(service.revokeProfile('01900000-0000-7000-8000-000000000001', '01900000-0000-7000-8000-000000000002', { kind: 'system' })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(saved).toHaveLength(1);
    expect(audited).toEqual([expect.objectContaining({ action: 'profile.tokens_revoked', target: 'profile:01900000-0000-7000-8000-000000000001' })]);
  });

  it("answers 503 for a signed-out session and a key's revoked tokens it cannot announce", async () => {
    await expect(service.sessionRevoked('01900000-0000-7000-8000-000000000003', new Date(Date.now() + 60_000))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(service.apiKeyTokensRevoked('01900000-0000-7000-8000-000000000004', new Date())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
