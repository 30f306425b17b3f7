import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AuditEntryView,
  MessageEnvelope,
  PATTERNS,
  Page,
  RequestOf,
  SignatureView,
  SignedTransactionView,
  requireGameCredential,
  requireOperator,
} from '@game-wallet/contracts';
import { SignaturesService } from './signatures.service';
import { SigningService } from './signing.service';

@Controller()
export class SignaturesController {
  constructor(
    private readonly signing: SigningService,
    private readonly signatures: SignaturesService,
  ) {}

  @MessagePattern(PATTERNS.wallet.signTransaction)
  signTransaction(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.signTransaction'>>): Promise<SignedTransactionView> {
    const { walletId, ...request } = payload;
    return this.signing.signTransaction(walletId, request, requireGameCredential(principal));
  }

  @MessagePattern(PATTERNS.wallet.signTypedData)
  signTypedData(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.signTypedData'>>): Promise<SignatureView> {
    return this.signing.signTypedData(payload.walletId, payload.typedData, requireGameCredential(principal));
  }

  @MessagePattern(PATTERNS.wallet.sign)
  sign(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.sign'>>): Promise<SignatureView> {
    return this.signing.sign(payload.walletId, payload.chain, Buffer.from(payload.message, 'base64'), requireGameCredential(principal));
  }

  @MessagePattern(PATTERNS.wallet.listSignatures)
  listSignatures(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.signatures.list'>>): Promise<Page<AuditEntryView>> {
    requireOperator(principal);
    return this.signatures.list(payload.gameId, payload.limit, payload.cursor);
  }
}
