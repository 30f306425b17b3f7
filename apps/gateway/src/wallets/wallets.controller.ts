import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { Authenticated, Caller, ServiceCaller } from '@game-wallet/auth';
import { PATTERNS, ProfileView, SignatureView, SignedTransactionView, WalletView } from '@game-wallet/contracts';
import { ServiceCalls } from '../services/service-calls';
import { SigningRateGuard } from './signing-rate.guard';
import { parseSignBody, parseSignTransactionBody, parseSignTypedDataBody, parseWalletQuery } from './wallet-input';

/** Routes that sign: an API key that requires signed requests for signing routes must sign these. */
const SIGNING_ROUTE = { apiKey: true, profile: true, signing: true };

@Controller('v1/wallet')
@Authenticated({ apiKey: true, profile: true })
export class WalletsController {
  constructor(private readonly services: ServiceCalls) {}

  /** SPEC §4.2: the wallet, optionally with its profile (the wallet service adds it) and only one chain's address. */
  @Get(':walletId')
  async get(
    @Param('walletId') walletId: string,
    @Query() query: Record<string, unknown>,
    @Caller() caller: ServiceCaller,
  ): Promise<WalletView & { profile?: ProfileView }> {
    const { includeProfile, chain } = parseWalletQuery(query);
    const wallet = await this.services.call(PATTERNS.wallet.getWallet, { walletId, ...(includeProfile ? { include: 'profile' } : {}) }, caller);
    return chain ? { ...wallet, addresses: { [chain]: wallet.addresses[chain] } } : wallet;
  }

  /** SPEC §11: a transaction signed by the wallet (the caller broadcasts it). */
  @Post(':walletId/sign-transaction')
  @Authenticated(SIGNING_ROUTE)
  @UseGuards(SigningRateGuard)
  @HttpCode(200)
  signTransaction(@Param('walletId') walletId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<SignedTransactionView> {
    return this.services.call(PATTERNS.wallet.signTransaction, { walletId, ...parseSignTransactionBody(body) }, caller);
  }

  /** SPEC §11: EIP-712 typed data signed by the wallet. */
  @Post(':walletId/sign-typed-data')
  @Authenticated(SIGNING_ROUTE)
  @UseGuards(SigningRateGuard)
  @HttpCode(200)
  signTypedData(@Param('walletId') walletId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<SignatureView> {
    return this.services.call(PATTERNS.wallet.signTypedData, { walletId, typedData: parseSignTypedDataBody(body) }, caller);
  }

  /** SPEC §4.5: a signature by the wallet's key on one chain. */
  @Post(':walletId/sign')
  @Authenticated(SIGNING_ROUTE)
  @UseGuards(SigningRateGuard)
  @HttpCode(200)
  sign(@Param('walletId') walletId: string, @Body() body: unknown, @Caller() caller: ServiceCaller): Promise<SignatureView> {
    const { chain, message } = parseSignBody(body);
    return this.services.call(PATTERNS.wallet.sign, { walletId, chain, message: message.toString('base64') }, caller);
  }
}
