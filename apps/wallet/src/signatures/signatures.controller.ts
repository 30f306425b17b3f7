import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { AuditEntryView, PATTERNS, Page, SignatureView, SignedTransactionView, requireGameCredential } from '@game-wallet/contracts';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { EnvelopeOf, Handles, RedisStreamsContext } from '@game-wallet/transport';
import { SignaturesService } from './signatures.service';
import { SigningService } from './signing.service';

@Controller()
export class SignaturesController {
  constructor(
    private readonly signing: SigningService,
    private readonly signatures: SignaturesService,
    private readonly access: ConsoleAuthorizer,
  ) {}

  @Handles(PATTERNS.wallet.signTransaction)
  signTransaction(@Payload() { payload, principal }: EnvelopeOf<'wallet.wallets.signTransaction'>): Promise<SignedTransactionView> {
    const { walletId, ...request } = payload;
    return this.signing.signTransaction(walletId, request, requireGameCredential(principal));
  }

  @Handles(PATTERNS.wallet.signTypedData)
  signTypedData(@Payload() { payload, principal }: EnvelopeOf<'wallet.wallets.signTypedData'>): Promise<SignatureView> {
    return this.signing.signTypedData(payload.walletId, payload.typedData, requireGameCredential(principal));
  }

  @Handles(PATTERNS.wallet.sign)
  sign(@Payload() { payload, principal }: EnvelopeOf<'wallet.wallets.sign'>): Promise<SignatureView> {
    return this.signing.sign(payload.walletId, payload.chain, Buffer.from(payload.message, 'base64'), requireGameCredential(principal));
  }

  @Handles(PATTERNS.wallet.listSignatures)
  async listSignatures(@Payload() { payload, principal }: EnvelopeOf<'wallet.signatures.list'>, @Ctx() context: RedisStreamsContext): Promise<Page<AuditEntryView>> {
    await this.access.require(principal, 'audit.read', payload.gameId, context);
    return this.signatures.list(payload.gameId, payload.limit, payload.cursor);
  }
}
