import { Inject, Injectable } from '@nestjs/common';
import { CONSOLE_AUDIENCE, ConsoleClaims, IssuedToken, PROFILE_AUDIENCE, ProfileClaims } from '@game-wallet/contracts';
import { signEs256 } from '@game-wallet/crypto';
import { newId } from '@game-wallet/database';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { SigningKeysService } from './signing-keys.service';

/** Signs profile JWTs and console tokens with the current key (ES256, `kid` in the header). */
@Injectable()
export class TokenIssuer {
  constructor(
    private readonly keys: SigningKeysService,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  /**
   * SPEC §3 claims: iss, aud, sub, app, iat, exp, jti (a UUIDv7, so its issue time is known to the ms), and `akid`,
   * the API key the token chain started from. `notAfter` (epoch seconds) caps `exp`: a token refreshing itself gets
   * no longer life than it had.
   */
  profileToken(profileId: string, applicationId: string, durationSeconds: number, chain: { apiKeyId?: string; notAfter?: number } = {}): IssuedToken {
    const iat = Math.floor(Date.now() / 1000);
    const claims: ProfileClaims = {
      iss: this.config.jwtIssuer,
      aud: PROFILE_AUDIENCE,
      sub: profileId,
      app: applicationId,
      iat,
      exp: Math.min(iat + durationSeconds, chain.notAfter ?? Number.POSITIVE_INFINITY),
      jti: newId(),
      ...(chain.apiKeyId === undefined ? {} : { akid: chain.apiKeyId }),
    };
    return { jwt: this.sign(claims), expiresAt: new Date(claims.exp * 1000).toISOString() };
  }

  consoleToken(operatorId: string, sessionId: string, expiresAt: Date): string {
    const claims: ConsoleClaims = {
      iss: this.config.jwtIssuer,
      aud: CONSOLE_AUDIENCE,
      sub: operatorId,
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
      jti: sessionId,
    };
    return this.sign(claims);
  }

  private sign(claims: object): string {
    const key = this.keys.current();
    return signEs256({ alg: 'ES256', kid: key.kid, typ: 'JWT' }, claims, key.privateKey);
  }
}
