import { TransportKeys, createFailFastRedis } from '@game-wallet/transport';
import { IdentityConfig } from '../config';
import { RevocationsService } from './revocations.service';

describe(RevocationsService.name, () => {
  // A Redis that cannot be reached: its publish fails as it would while Redis is down or paused.
  const redis = createFailFastRedis('redis://127.0.0.1:1', 'revocations-spec');
  const saved: unknown[] = [];
  const repository = { upsert: async (row: unknown) => void saved.push(row) } as never;
  const service = new RevocationsService(repository, repository, repository, redis, { keyPrefix: 'spec' } as IdentityConfig, TransportKeys.random('identity'));

  afterAll(() => redis.disconnect());

  it('saves a revocation first and answers 503 when it cannot tell the gateways (never a silent success)', async () => {
    await expect(service.revokeProfile('01900000-0000-7000-8000-000000000001', '01900000-0000-7000-8000-000000000002')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(saved).toHaveLength(1);
  });

  it("answers 503 for a signed-out session and a key's revoked tokens it cannot announce", async () => {
    await expect(service.sessionRevoked('01900000-0000-7000-8000-000000000003', new Date(Date.now() + 60_000))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(service.apiKeyTokensRevoked('01900000-0000-7000-8000-000000000004', new Date())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
