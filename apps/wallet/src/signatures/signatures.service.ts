import { Injectable } from '@nestjs/common';
import { AuditEntryView, Page, decodeCursor, pageOf } from '@game-wallet/contracts';
import { SignaturesRepository } from './signatures.repository';

/** The signature audit trail of a game, in the console's audit shape (merged there with identity's). */
@Injectable()
export class SignaturesService {
  constructor(private readonly signatures: SignaturesRepository) {}

  async list(applicationId: string, limit: number, cursor?: string): Promise<Page<AuditEntryView>> {
    const rows = await this.signatures.listForGame(applicationId, limit + 1, decodeCursor(cursor));
    return pageOf(rows, limit, (row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: row.credential,
      action: row.decision === 'denied' ? 'wallet.signing-denied' : 'wallet.signed',
      target: `wallet:${row.walletId}`,
      details: { chain: row.chain, operation: row.operation, decision: row.decision, messageSha256: row.messageSha256 },
    }));
  }
}
