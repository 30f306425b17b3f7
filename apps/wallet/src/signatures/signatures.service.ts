import { Injectable } from '@nestjs/common';
import { AuditEntryView, Page, decodeCursor, pageOf } from '@game-wallet/contracts';
import { SigningPoliciesService } from '../policies/signing-policies.service';
import { SignatureEventEntity } from './entities/signature-event.entity';
import { SignaturesRepository } from './signatures.repository';

/**
 * The wallet service's part of a game's audit trail, in the console's audit shape (merged there with identity's):
 * its signing attempts and its signing policy's changes, newest first.
 */
@Injectable()
export class SignaturesService {
  constructor(
    private readonly signatures: SignaturesRepository,
    private readonly policies: SigningPoliciesService,
  ) {}

  async list(applicationId: string, limit: number, cursor?: string): Promise<Page<AuditEntryView>> {
    const beforeId = decodeCursor(cursor);
    // Each source's next `limit + 1` after the cursor: the newest `limit + 1` of both are among them.
    const [signatures, policyChanges] = await Promise.all([
      this.signatures.listForGame(applicationId, limit + 1, beforeId),
      this.policies.auditEntries(applicationId, limit + 1, beforeId),
    ]);
    const entries = [...signatures.map(signatureEntry), ...policyChanges].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return pageOf(entries, limit, (entry) => entry);
  }
}

function signatureEntry(row: SignatureEventEntity): AuditEntryView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.credential,
    action: row.decision === 'denied' ? 'wallet.signing_denied' : 'wallet.signed',
    target: `wallet:${row.walletId}`,
    details: {
      chain: row.chain,
      operation: row.operation,
      decision: row.decision,
      messageSha256: row.messageSha256,
      // The policy version and rule that decided (null: no rule accepted); absent on attempts made before rules.
      ...(row.policyVersion === null ? {} : { policyVersion: row.policyVersion, ruleId: row.ruleId }),
    },
  };
}
