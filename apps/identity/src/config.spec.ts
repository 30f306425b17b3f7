import { commonProductionEnvironment, requiredVariables } from '@game-wallet/testing';
import { randomBytes } from 'node:crypto';
import { identityEnvShape, loadIdentityConfig } from './config';

describe(loadIdentityConfig.name, () => {
  const production = {
    ...commonProductionEnvironment('identity'),
    IDENTITY_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CONSOLE_ADMIN_EMAIL: 'Ops@Example.com',
    CONSOLE_ADMIN_PASSWORD: 'a long enough password',
  };

  it('refuses to start in production without exactly the variables docs/configuration.md says it requires there', () => {
    const { documented, refused } = requiredVariables(identityEnvShape, loadIdentityConfig, production);
    expect(refused).toEqual(documented);
    expect(refused).toEqual(['REDIS_URL', 'DATABASE_URL', 'TRANSPORT_HMAC_KEYS', 'IDENTITY_KEY_ENCRYPTION_KEY', 'CONSOLE_ADMIN_EMAIL', 'CONSOLE_ADMIN_PASSWORD']);
  });

  it("reads the first operator's e-mail in lower case, and the issuer identity and the gateway share", () => {
    const config = loadIdentityConfig(production);
    expect(config).toMatchObject({ consoleAdminEmail: 'ops@example.com', jwtIssuer: 'game-wallet' });
    expect(config.keyEncryptionKey).toEqual(Buffer.from(production.IDENTITY_KEY_ENCRYPTION_KEY, 'base64'));
    expect(() => loadIdentityConfig({ CONSOLE_ADMIN_PASSWORD: 'too short' })).toThrow('CONSOLE_ADMIN_PASSWORD: must be at least 12 characters');
  });
});
