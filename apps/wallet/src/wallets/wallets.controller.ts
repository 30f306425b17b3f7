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
  WalletAddresses,
  WalletView,
  requireApiKey,
  requireGameCredential,
  requireOperator,
} from '@game-wallet/contracts';
import { SignaturesService } from '../signatures/signatures.service';
import { SigningService } from '../signatures/signing.service';
import { WalletsService, toWalletView } from './wallets.service';

@Controller()
export class WalletsController {
  constructor(
    private readonly wallets: WalletsService,
    private readonly signing: SigningService,
    private readonly signatures: SignaturesService,
  ) {}

  /** For player creation (core, with the game's API key as principal). */
  @MessagePattern(PATTERNS.wallet.createOrGetWallet)
  createOrGet(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.createOrGet'>>): Promise<{ walletId: string; created: boolean }> {
    return this.wallets.createOrGet(requireApiKey(principal).applicationId, payload.profileId);
  }

  @MessagePattern(PATTERNS.wallet.getWallet)
  async get(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.get'>>): Promise<WalletView> {
    return toWalletView(await this.wallets.get(payload.walletId, requireGameCredential(principal)));
  }

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

  /** Console only: the gateway checked the session; the game id scopes the lookup. */
  @MessagePattern(PATTERNS.wallet.addresses)
  addresses(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.addresses'>>): Promise<Record<string, WalletAddresses>> {
    requireOperator(principal);
    return this.wallets.addresses(payload.gameId, payload.walletIds);
  }

  @MessagePattern(PATTERNS.wallet.listSignatures)
  listSignatures(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.signatures.list'>>): Promise<Page<AuditEntryView>> {
    requireOperator(principal);
    return this.signatures.list(payload.gameId, payload.limit, payload.cursor);
  }
}
