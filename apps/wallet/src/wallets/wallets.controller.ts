import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageEnvelope, PATTERNS, RequestOf, WalletAddresses, WalletView, requireApiKey, requireGameCredential, requireOperator } from '@game-wallet/contracts';
import { WalletsService, toWalletView } from './wallets.service';

@Controller()
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  /** For player creation (core, with the game's API key as principal). */
  @MessagePattern(PATTERNS.wallet.createOrGetWallet)
  createOrGet(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.createOrGet'>>): Promise<{ walletId: string; created: boolean }> {
    return this.wallets.createOrGet(requireApiKey(principal).applicationId, payload.profileId);
  }

  @MessagePattern(PATTERNS.wallet.getWallet)
  async get(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.get'>>): Promise<WalletView> {
    return toWalletView(await this.wallets.get(payload.walletId, requireGameCredential(principal)));
  }

  /** Console only: the gateway checked the session; the game id scopes the lookup. */
  @MessagePattern(PATTERNS.wallet.addresses)
  addresses(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'wallet.wallets.addresses'>>): Promise<Record<string, WalletAddresses>> {
    requireOperator(principal);
    return this.wallets.addresses(payload.gameId, payload.walletIds);
  }
}
