import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module';
import { PasskeysService } from './passkeys.service';
import { SecondFactorsRepository } from './second-factors.repository';
import { SecondFactorsService, TOTP_CLOCK } from './second-factors.service';
import { totpSecretKeyProvider } from './totp-secret-key';
import { WebAuthnChallenges } from './webauthn-challenges';

/** Operators' second factors: TOTP, recovery codes and passkeys (their checks; the routes are the account's and sign-in's). */
@Module({
  imports: [TokensModule],
  providers: [SecondFactorsRepository, SecondFactorsService, PasskeysService, WebAuthnChallenges, totpSecretKeyProvider, { provide: TOTP_CLOCK, useValue: () => Date.now() }],
  exports: [SecondFactorsService, PasskeysService],
})
export class SecondFactorsModule {}
