import { ConfigError } from '@game-wallet/config';
import { commonProductionEnvironment, requiredVariables } from '@game-wallet/testing';
import { randomBytes } from 'node:crypto';
import { loadWalletConfig, parseMasterKeys, walletEnvShape } from './config';

describe(loadWalletConfig.name, () => {
  const key = randomBytes(32).toString('base64');
  const secretLooking = 'S3cretKeyMaterialThatMustNeverBeEchoed0123456789';

  it('reads keys given as JSON or as id=base64 pairs', () => {
    expect([...(parseMasterKeys(`{"k1":"${key}"}`) as Map<string, Buffer>).keys()]).toEqual(['k1']);
    expect([...(parseMasterKeys(`k1=${key}, k2=${key}`) as Map<string, Buffer>).keys()]).toEqual(['k1', 'k2']);
  });

  it.each([
    ['a key without its id', secretLooking],
    ['an id and key swapped', `${secretLooking}=k1`],
    ['a short key', `k1=${secretLooking}`],
    ['a key that is not base64', `k1=${secretLooking}!!`],
    ['JSON that does not parse', `{"k1": "${secretLooking}"`],
    ['a JSON key that is not a string', `{"${secretLooking}": 42}`],
    ['a JSON object with a bad id', `{"${secretLooking}!": "${key}"}`],
    ['a second entry gone wrong', `k1=${key},${secretLooking}`],
  ])('refuses %s with a message that repeats no part of the value', (_, value) => {
    let error: unknown;
    try {
      loadWalletConfig({ WALLET_MASTER_KEYS: value, WALLET_MASTER_KEY_ID: 'k1' });
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('WALLET_MASTER_KEYS');
    for (let start = 0; start + 8 <= secretLooking.length; start += 4) {
      expect(message).not.toContain(secretLooking.slice(start, start + 8));
    }
    expect(message).not.toContain(key.slice(0, 12));
  });

  it('sizes the key-generation pool from WALLET_KEYGEN_THREADS, else from the CPUs the container may use', () => {
    expect(loadWalletConfig({ WALLET_KEYGEN_THREADS: '3' }).keygenThreads).toBe(3);
    expect(loadWalletConfig({}).keygenThreads).toBeGreaterThanOrEqual(1);
    for (const value of ['0', 'abc', '-2']) {
      expect(() => loadWalletConfig({ WALLET_KEYGEN_THREADS: value })).toThrow('WALLET_KEYGEN_THREADS: must be a positive whole number');
    }
  });

  it('with WALLET_MASTER_KEY_PROVIDER=pkcs11 needs the module, token, PIN and key label, and names each missing one', () => {
    expect(() => loadWalletConfig({ WALLET_MASTER_KEY_PROVIDER: 'pkcs11' })).toThrow(
      /PKCS11_MODULE: must be set[\s\S]*PKCS11_TOKEN_LABEL: must be set[\s\S]*PKCS11_PIN: must be set[\s\S]*WALLET_MASTER_KEY_ID: must be set/,
    );
    const config = loadWalletConfig({
      WALLET_MASTER_KEY_PROVIDER: 'pkcs11',
      PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so',
      PKCS11_TOKEN_LABEL: 'wallet',
      PKCS11_PIN: secretLooking,
      WALLET_MASTER_KEY_ID: 'hsm-1',
    });
    expect(config).toMatchObject({ masterKeyProvider: 'pkcs11', masterKeyId: 'hsm-1', pkcs11: { tokenLabel: 'wallet', pin: secretLooking } });
  });

  it('refuses an unknown provider, and in production with env keys still needs WALLET_MASTER_KEYS', () => {
    expect(() => loadWalletConfig({ WALLET_MASTER_KEY_PROVIDER: 'kms' })).toThrow('WALLET_MASTER_KEY_PROVIDER: must be one of env, pkcs11');
    expect(() => loadWalletConfig({ NODE_ENV: 'production', WALLET_MASTER_KEY_ID: 'k1' })).toThrow('WALLET_MASTER_KEYS: must be set when NODE_ENV=production');
  });

  it('refuses to start in production without exactly the variables docs/configuration.md says it requires there', () => {
    const production = { ...commonProductionEnvironment('wallet'), WALLET_MASTER_KEYS: `k1=${key}`, WALLET_MASTER_KEY_ID: 'k1' };
    const { documented, refused } = requiredVariables(walletEnvShape, loadWalletConfig, production);
    expect(refused).toEqual(documented);
    expect(refused).toEqual(['REDIS_URL', 'DATABASE_URL', 'TRANSPORT_HMAC_KEYS', 'WALLET_MASTER_KEYS', 'WALLET_MASTER_KEY_ID']);
  });

  it('with WALLET_MASTER_KEY_PROVIDER=pkcs11 refuses to start without exactly the variables documented as required with pkcs11', () => {
    const pkcs11 = { WALLET_MASTER_KEY_PROVIDER: 'pkcs11', PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so', PKCS11_TOKEN_LABEL: 'wallet', PKCS11_PIN: '1234', WALLET_MASTER_KEY_ID: 'hsm-1' };
    const { documented, refused } = requiredVariables(walletEnvShape, loadWalletConfig, pkcs11, (doc) => doc.required?.when?.includes('with `pkcs11`') === true);
    expect(refused).toEqual(documented);
    expect(refused).toEqual(['WALLET_MASTER_KEY_ID', 'PKCS11_MODULE', 'PKCS11_TOKEN_LABEL', 'PKCS11_PIN']);
  });
});
