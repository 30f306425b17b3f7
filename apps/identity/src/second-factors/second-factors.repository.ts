import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, rowsOf } from '@game-wallet/database';
import { DataSource, EntityManager } from 'typeorm';
import { OperatorEntity } from '../operators/entities/operator.entity';
import { PasskeyEntity } from '../operators/entities/passkey.entity';
import { RecoveryCodeEntity } from '../operators/entities/recovery-code.entity';

/** An operator's second factors: TOTP secrets (sealed), recovery codes (hashed) and passkeys. Every query names the operator. */
@Injectable()
export class SecondFactorsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async setPendingTotp(operatorId: string, sealedSecret: string): Promise<void> {
    await this.dataSource.manager.update(OperatorEntity, { id: operatorId }, { totpPendingSecret: sealedSecret });
  }

  /**
   * Makes the pending secret the operator's TOTP secret (`step`: the code that confirmed it, never accepted again) and
   * replaces their recovery codes, together. False when the pending secret changed meanwhile.
   */
  async enableTotp(operatorId: string, pendingSecret: string, step: number, codeHashes: string[]): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager.query(
        `UPDATE identity.operators SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_last_step = $3
          WHERE id = $1 AND totp_pending_secret = $2 RETURNING id`,
        [operatorId, pendingSecret, step],
      );
      if (rowsOf(result).length === 0) {
        return false;
      }
      await this.replaceRecoveryCodes(operatorId, codeHashes, manager);
      return true;
    });
  }

  /** Removes the TOTP secret; the recovery codes go too when no passkey is left (they back up a second factor). */
  async removeTotp(operatorId: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager.query(
        `UPDATE identity.operators SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL
          WHERE id = $1 AND totp_secret IS NOT NULL RETURNING id`,
        [operatorId],
      );
      await this.dropRecoveryCodesWithoutFactor(operatorId, manager);
      return rowsOf(result).length > 0;
    });
  }

  /**
   * Takes TOTP step `step` for the operator when it is later than the last one taken: in one statement, so two
   * requests with the same code cannot both pass.
   */
  async takeTotpStep(operatorId: string, step: number): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE identity.operators SET totp_last_step = $2
        WHERE id = $1 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [operatorId, step],
    );
    return rowsOf(result).length > 0;
  }

  async replaceRecoveryCodes(operatorId: string, codeHashes: string[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.delete(RecoveryCodeEntity, { operatorId });
    const createdAt = new Date();
    await manager.insert(
      RecoveryCodeEntity,
      codeHashes.map((codeHash) => ({ id: newId(), operatorId, codeHash, createdAt, usedAt: null })),
    );
  }

  /** Spends an unused recovery code of the operator's: true once, for one request only. */
  async useRecoveryCode(operatorId: string, codeHash: string): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE identity.operator_recovery_codes SET used_at = now()
        WHERE id = (SELECT id FROM identity.operator_recovery_codes WHERE operator_id = $1 AND code_hash = $2 AND used_at IS NULL LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [operatorId, codeHash],
    );
    return rowsOf(result).length > 0;
  }

  listPasskeys(operatorId: string): Promise<PasskeyEntity[]> {
    return this.dataSource.manager.find(PasskeyEntity, { where: { operatorId }, order: { createdAt: 'ASC' } });
  }

  findPasskey(operatorId: string, credentialId: string): Promise<PasskeyEntity | null> {
    return this.dataSource.manager.findOneBy(PasskeyEntity, { operatorId, credentialId });
  }

  /** False when the credential is registered already (to this operator or another). */
  async insertPasskey(passkey: PasskeyEntity): Promise<boolean> {
    const result = await this.dataSource.query(
      `INSERT INTO identity.operator_passkeys (id, operator_id, credential_id, public_key, counter, transports, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8) ON CONFLICT (credential_id) DO NOTHING RETURNING id`,
      [passkey.id, passkey.operatorId, passkey.credentialId, passkey.publicKey, passkey.counter, JSON.stringify(passkey.transports), passkey.name, passkey.createdAt],
    );
    return rowsOf(result).length > 0;
  }

  /**
   * Notes a use of the passkey with the authenticator's new signature counter, only over the counter the check read:
   * two uses racing with one assertion cannot both count.
   */
  async notePasskeyUse(operatorId: string, passkeyId: string, previousCounter: string, counter: number): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE identity.operator_passkeys SET counter = $4, last_used_at = now() WHERE id = $2 AND operator_id = $1 AND counter = $3 RETURNING id`,
      [operatorId, passkeyId, previousCounter, counter],
    );
    return rowsOf(result).length > 0;
  }

  async removePasskey(operatorId: string, passkeyId: string): Promise<PasskeyEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      const passkey = await manager.findOneBy(PasskeyEntity, { id: passkeyId, operatorId });
      if (!passkey) {
        return null;
      }
      await manager.delete(PasskeyEntity, { id: passkeyId, operatorId });
      await this.dropRecoveryCodesWithoutFactor(operatorId, manager);
      return passkey;
    });
  }

  private async dropRecoveryCodesWithoutFactor(operatorId: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `DELETE FROM identity.operator_recovery_codes r WHERE r.operator_id = $1
          AND NOT EXISTS (SELECT 1 FROM identity.operators o WHERE o.id = $1 AND o.totp_secret IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM identity.operator_passkeys p WHERE p.operator_id = $1)`,
      [operatorId],
    );
  }
}
