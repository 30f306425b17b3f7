import { commonProductionEnvironment, requiredVariables } from '@game-wallet/testing';
import { randomBytes } from 'node:crypto';
import { identityEnvShape, loadIdentityConfig } from './config';

describe(loadIdentityConfig.name, () => {
  const production = {
    ...commonProductionEnvironment('identity'),
    IDENTITY_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const firstOperator = { CONSOLE_ADMIN_EMAIL: 'Ops@Example.com', CONSOLE_ADMIN_PASSWORD: 'a long enough password' };

  it('refuses to start in production without exactly the variables docs/configuration.md says it requires there', () => {
    const { documented, refused } = requiredVariables(identityEnvShape, loadIdentityConfig, production);
    expect(refused).toEqual(documented);
    // The first operator's variables are not among them (issue 32): without them, `create-operator` invites the first owner.
    expect(refused).toEqual(['REDIS_URL', 'DATABASE_URL', 'TRANSPORT_HMAC_KEYS', 'IDENTITY_KEY_ENCRYPTION_KEY']);
  });

  it('starts in production without a first operator, but not with a password without its e-mail, nor half of a mail server', () => {
    const withoutOperator = production;
    const { CONSOLE_ADMIN_EMAIL, CONSOLE_ADMIN_PASSWORD } = firstOperator;
    expect(loadIdentityConfig(withoutOperator)).toMatchObject({ consoleAdminEmail: undefined, consoleAdminPassword: undefined, smtp: undefined });
    // The e-mail alone is not used (its password's Secret key may be gone once an operator exists).
    expect(loadIdentityConfig({ ...withoutOperator, CONSOLE_ADMIN_EMAIL }).consoleAdminEmail).toBe('ops@example.com');
    expect(() => loadIdentityConfig({ ...withoutOperator, CONSOLE_ADMIN_PASSWORD })).toThrow('CONSOLE_ADMIN_EMAIL: must be set with CONSOLE_ADMIN_PASSWORD');
    expect(() => loadIdentityConfig({ ...production, SMTP_URL: 'smtp://mail.example.com:587' })).toThrow('SMTP_FROM: must be set with SMTP_URL');
    expect(() => loadIdentityConfig({ ...production, SMTP_URL: 'http://mail.example.com', SMTP_FROM: 'a@example.com' })).toThrow('SMTP_URL: must be a smtp:// or smtps:// URL');
    expect(loadIdentityConfig({ ...production, SMTP_URL: 'smtps://u:p@mail.example.com:465', SMTP_FROM: 'Console <a@example.com>' }).smtp).toEqual({
      url: 'smtps://u:p@mail.example.com:465',
      from: 'Console <a@example.com>',
    });
  });

  it("reads the first operator's e-mail in lower case, and the issuer identity and the gateway share", () => {
    const config = loadIdentityConfig({ ...production, ...firstOperator });
    expect(config).toMatchObject({ consoleAdminEmail: 'ops@example.com', jwtIssuer: 'game-wallet' });
    expect(config.keyEncryptionKey).toEqual(Buffer.from(production.IDENTITY_KEY_ENCRYPTION_KEY, 'base64'));
    expect(() => loadIdentityConfig({ CONSOLE_ADMIN_PASSWORD: 'too short' })).toThrow('CONSOLE_ADMIN_PASSWORD: must be at least 12 characters');
  });

  it('keeps webhooks off private addresses in production: the default there, and a development setting it refuses', () => {
    expect(loadIdentityConfig(production).webhooks).toEqual({ retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000], disableAfterSeconds: 86400, timeoutMs: 10000, allowPrivateUrls: false });
    expect(() => loadIdentityConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toThrow('WEBHOOK_ALLOW_PRIVATE_URLS: must not be true when NODE_ENV=production');
    expect(loadIdentityConfig({ NODE_ENV: 'development' }).webhooks.allowPrivateUrls).toBe(true);
    expect(loadIdentityConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).webhooks.allowPrivateUrls).toBe(false);
    expect(() => loadIdentityConfig({ ...production, WEBHOOK_TIMEOUT_MS: '30000' })).toThrow('WEBHOOK_TIMEOUT_MS: must be at most 10000');
    expect(() => loadIdentityConfig({ ...production, WEBHOOK_RETRY_SCHEDULE: '5,x' })).toThrow('WEBHOOK_RETRY_SCHEDULE');
  });
});
