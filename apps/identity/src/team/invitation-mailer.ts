import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';

/** The longest an invitation waits for its mail (the invitation is made already; a slow server only delays the answer). */
const SEND_TIMEOUT_MS = 8_000;

export interface InvitationMail {
  to: string;
  link: string;
  expiresAt: Date;
  /** who invited them, as the mail names them */
  invitedBy: string | null;
}

/**
 * Mails invitation links when `SMTP_URL` and `SMTP_FROM` are set. A failure is logged (never with the link, which
 * holds the token) and answered `false`: the inviter still has the link to pass on.
 */
@Injectable()
export class InvitationMailer implements OnModuleDestroy {
  private readonly logger = new Logger(InvitationMailer.name);
  private transporter?: Transporter;

  constructor(@Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig) {}

  get configured(): boolean {
    return this.config.smtp !== undefined;
  }

  /** Whether the mail was accepted by the mail server (false when none is configured). */
  async send(mail: InvitationMail): Promise<boolean> {
    const smtp = this.config.smtp;
    if (smtp === undefined) {
      return false;
    }
    this.transporter ??= createTransport(smtp.url, { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 });
    const transporter = this.transporter;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        transporter.sendMail({
          from: smtp.from,
          to: mail.to,
          subject: 'Your invitation to the Game Wallet console',
          text: [
            `${mail.invitedBy ?? 'The administrator of this Game Wallet instance'} invited you to its console.`,
            '',
            'Open this link to choose your password and sign in (it works once):',
            mail.link,
            '',
            `It expires on ${mail.expiresAt.toUTCString()}. If you did not expect it, ignore this mail.`,
          ].join('\n'),
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${SEND_TIMEOUT_MS / 1000} s`)), SEND_TIMEOUT_MS);
        }),
      ]);
      return true;
    } catch (error) {
      // The error of a mail library may quote what it sent: only its code and class are logged.
      const code = (error as { code?: unknown }).code;
      this.logger.warn(`Could not mail an invitation (${typeof code === 'string' ? code : error instanceof Error ? error.name : 'error'}); the inviter has the link to pass on`);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  onModuleDestroy(): void {
    this.transporter?.close();
  }
}
