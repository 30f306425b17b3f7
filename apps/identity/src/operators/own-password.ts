import { Injectable } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';
import { ConsoleCaller } from '../access/console-access.service';
import { OperatorsRepository } from './operators.repository';
import { verifyPassword } from './passwords';
import { SignInLimiter } from './sign-in-limiter';

/**
 * A signed-in operator's password given again (to change it, or as the step-up of an operator without a second
 * factor), checked as a sign-in is: counted per e-mail and address before the hash runs, given back when right. A
 * wrong one is 401 `INVALID_CREDENTIALS` with `wrong`, or 429 when the e-mail is locked.
 */
@Injectable()
export class OwnPassword {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly limiter: SignInLimiter,
  ) {}

  async check(caller: ConsoleCaller, ip: string, digest: string, wrong: string): Promise<void> {
    const { counted, retryAfter } = await this.limiter.reserve(caller.email, ip);
    let valid: boolean;
    try {
      const operator = await this.operators.findById(caller.operatorId);
      valid = operator !== null && (await verifyPassword(digest, operator.passwordHash));
    } catch (error) {
      await this.limiter.release(caller.email, ip, counted);
      throw error;
    } finally {
      await this.limiter.done(caller.email, counted);
    }
    if (!valid) {
      throw counted === 'address-only' ? new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', retryAfter) : new AppError('INVALID_CREDENTIALS', wrong);
    }
    await this.limiter.release(caller.email, ip, counted);
  }
}
