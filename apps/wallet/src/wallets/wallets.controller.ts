import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { PATTERNS, ProfileView, WalletAddresses, WalletView, requireApiKey, requireGameCredential } from '@game-wallet/contracts';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { EnvelopeOf, Handles, RedisStreamsContext } from '@game-wallet/transport';
import { WalletProfiles } from './wallet-profiles';
import { WalletsService, toWalletView } from './wallets.service';

@Controller()
export class WalletsController {
  constructor(
    private readonly wallets: WalletsService,
    private readonly profiles: WalletProfiles,
    private readonly access: ConsoleAuthorizer,
  ) {}

  /** For player creation (core, with the game's API key as principal). */
  @Handles(PATTERNS.wallet.createOrGetWallet)
  createOrGet(@Payload() { payload, principal }: EnvelopeOf<'wallet.wallets.createOrGet'>): Promise<{ walletId: string; created: boolean }> {
    return this.wallets.createOrGet(requireApiKey(principal).applicationId, payload.profileId);
  }

  /** The wallet, and with `include: 'profile'` its profile: the one answer of `GET /v1/wallet/{id}?include=profile`. */
  @Handles(PATTERNS.wallet.getWallet)
  async get(
    @Payload() { payload, principal }: EnvelopeOf<'wallet.wallets.get'>,
    @Ctx() context: RedisStreamsContext,
  ): Promise<WalletView & { profile?: ProfileView }> {
    const caller = requireGameCredential(principal);
    const withProfile = payload.include === 'profile';
    // A profile token reaches only its own profile's wallet, so its profile is asked for at once, beside the wallet;
    // with an API key the wallet names the profile. The wallet's answer (404, 403) comes first either way.
    const ownProfile = withProfile && caller.kind === 'profile' ? this.profiles.read(caller.profileId, caller, context) : undefined;
    ownProfile?.catch(() => undefined); // awaited below, after the wallet
    const wallet = toWalletView(await this.wallets.get(payload.walletId, caller));
    return withProfile ? { ...wallet, profile: await (ownProfile ?? this.profiles.read(wallet.profileId, caller, context)) } : wallet;
  }

  /** Console only (identity decides who may); the game id scopes the lookup. */
  @Handles(PATTERNS.wallet.addresses)
  async addresses(@Payload() { payload, principal }: EnvelopeOf<'wallet.wallets.addresses'>, @Ctx() context: RedisStreamsContext): Promise<Record<string, WalletAddresses>> {
    await this.access.require(principal, 'players.read', payload.gameId, context);
    return this.wallets.addresses(payload.gameId, payload.walletIds);
  }
}
