import { Injectable } from '@nestjs/common';
import { ServiceCaller } from '@game-wallet/auth';
import { PATTERNS, consolePasswordDigest, normalizeEmail } from '@game-wallet/contracts';
import { sealTo } from '@game-wallet/crypto';
import { ServiceCalls } from '../services/service-calls';

/**
 * Console passwords on their way to identity: `consolePasswordDigest(email, password)` sealed to identity's password
 * key, the e-mail as associated data, so what crosses Redis is no cheaper to attack than identity's stored hash.
 */
@Injectable()
export class PasswordSealer {
  constructor(private readonly services: ServiceCalls) {}

  /** Seals `passwords` of the operator with this e-mail (sign-in: the e-mail typed). */
  async seal(caller: ServiceCaller, email: string, passwords: string[]): Promise<string[]> {
    const { publicKey } = await this.services.call(PATTERNS.identity.passwordKey, {}, { principal: { kind: 'system' }, requestId: caller.requestId });
    const normalized = Buffer.from(normalizeEmail(email));
    return passwords.map((password) => sealTo(publicKey, Buffer.from(consolePasswordDigest(email, password)), normalized));
  }

  /** Seals `passwords` of the signed-in operator (their e-mail read from their session). */
  async sealForOperator(caller: ServiceCaller, passwords: string[]): Promise<string[]> {
    const { operator } = await this.services.call(PATTERNS.identity.getSession, {}, caller);
    return this.seal(caller, operator.email, passwords);
  }
}
