import { AppError } from '@game-wallet/contracts';
import { Secret, TOTP } from 'otpauth';
import { randomBytes } from 'node:crypto';
import { PasskeysService } from './passkeys.service';
import { hashRecoveryCode } from './recovery-codes';
import { SecondFactorsRepository } from './second-factors.repository';
import { SecondFactorsService } from './second-factors.service';
import { sealTotpSecret } from './totp-secret-key';

describe(SecondFactorsService.name, () => {
  const NOW = 1_700_000_015_000; // a fixed clock, mid-step
  const STEP = Math.floor(NOW / 30_000);
  const key = randomBytes(32);
  const operatorId = '0190a0a0-0000-7000-8000-000000000001';
  const secret = new Secret({ size: 20 }).base32;
  const codeAt = (at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
  let repository: jest.Mocked<Pick<SecondFactorsRepository, 'enableTotp' | 'takeTotpStep' | 'useRecoveryCode' | 'setPendingTotp'>>;
  let service: SecondFactorsService;

  beforeEach(() => {
    repository = {
      enableTotp: jest.fn().mockResolvedValue(true),
      takeTotpStep: jest.fn().mockResolvedValue(true),
      useRecoveryCode: jest.fn().mockResolvedValue(true),
      setPendingTotp: jest.fn().mockResolvedValue(undefined),
    };
    const passkeys = { list: jest.fn().mockResolvedValue([]) } as unknown as PasskeysService;
    service = new SecondFactorsService(repository as unknown as SecondFactorsRepository, passkeys, key, () => NOW);
  });

  it('confirms a pending secret with the code of the clock, taking its step and ten recovery codes (stored hashed)', async () => {
    const pending = sealTotpSecret(key, operatorId, secret);
    const { recoveryCodes } = await service.confirmTotp({ id: operatorId, totpSecret: null, totpPendingSecret: pending }, codeAt(NOW));
    expect(recoveryCodes).toHaveLength(10);
    expect(repository.enableTotp).toHaveBeenCalledWith(operatorId, pending, STEP, recoveryCodes.map(hashRecoveryCode));
  });

  it('refuses a code two steps old at confirmation (401 INVALID_CREDENTIALS) and enables nothing', async () => {
    const pending = sealTotpSecret(key, operatorId, secret);
    await expect(service.confirmTotp({ id: operatorId, totpSecret: null, totpPendingSecret: pending }, codeAt(NOW - 60_000))).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(repository.enableTotp).not.toHaveBeenCalled();
  });

  it('accepts a TOTP code only when its step is taken for the first time (a code is never accepted twice)', async () => {
    const operator = { id: operatorId, totpSecret: sealTotpSecret(key, operatorId, secret) };
    const ceremony = { purpose: 'sign-in' as const, boundTo: 'x', webauthn: { origin: 'http://localhost', rpId: 'localhost' } };
    await expect(service.verify(operator, { totp: codeAt(NOW + 30_000) }, ceremony)).resolves.toBe('totp');
    expect(repository.takeTotpStep).toHaveBeenLastCalledWith(operatorId, STEP + 1);
    repository.takeTotpStep.mockResolvedValueOnce(false);
    await expect(service.verify(operator, { totp: codeAt(NOW + 30_000) }, ceremony)).resolves.toBeNull();
    await expect(service.verify(operator, { totp: codeAt(NOW + 90_000) }, ceremony)).resolves.toBeNull();
    await expect(service.verify({ id: operatorId, totpSecret: null }, { totp: codeAt(NOW) }, ceremony)).resolves.toBeNull();
  });

  it('spends a recovery code by its hash, and refuses one the repository reports spent', async () => {
    const ceremony = { purpose: 'step-up' as const, boundTo: 'x', webauthn: { origin: 'http://localhost', rpId: 'localhost' } };
    await expect(service.verify({ id: operatorId, totpSecret: null }, { recoveryCode: 'ABCD-EFGH-JKMN' }, ceremony)).resolves.toBe('recovery-code');
    expect(repository.useRecoveryCode).toHaveBeenCalledWith(operatorId, hashRecoveryCode('abcdefghjkmn'));
    repository.useRecoveryCode.mockResolvedValueOnce(false);
    await expect(service.verify({ id: operatorId, totpSecret: null }, { recoveryCode: 'ABCD-EFGH-JKMN' }, ceremony)).resolves.toBeNull();
  });

  it('refuses to start TOTP over one that is set up (403), and starts a sealed pending secret otherwise', async () => {
    await expect(service.startTotp({ id: operatorId, email: 'o@example.com', totpSecret: 'v1.x.y.z' })).rejects.toBeInstanceOf(AppError);
    const started = await service.startTotp({ id: operatorId, email: 'o@example.com', totpSecret: null });
    const [, sealed] = repository.setPendingTotp.mock.calls[0];
    expect(sealed).not.toContain(started.secret);
    expect(started.uri).toContain(`secret=${started.secret}`);
  });
});
