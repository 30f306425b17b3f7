import { Logger } from '@nestjs/common';
import { freePort } from '@game-wallet/testing';
import { IdentityConfig } from '../config';
import { InvitationMailer } from './invitation-mailer';

interface SmtpSink {
  captureOne(recipient: string): Promise<{ email: { body: string; headers: Record<string, unknown> } }>;
  stop(callback: () => void): void;
}
// smtp-tester ships no types.
const smtpTester = require('smtp-tester') as { init(port: number): SmtpSink };

const LINK = 'https://wallet.example.com/console/invitation#token=c2VjcmV0LXRva2VuLXRoYXQtbXVzdC1uZXZlci1iZS1sb2dnZWQ';

describe(InvitationMailer.name, () => {
  const mailerFor = (smtp?: IdentityConfig['smtp']) => new InvitationMailer({ smtp } as IdentityConfig);

  it('mails the link through the configured server', async () => {
    const port = await freePort();
    const sink = smtpTester.init(port);
    const mailer = mailerFor({ url: `smtp://127.0.0.1:${port}`, from: 'Console <console@example.com>' });
    try {
      const received = sink.captureOne('new@example.com');
      await expect(mailer.send({ to: 'new@example.com', link: LINK, expiresAt: new Date('2030-01-01T00:00:00Z'), invitedBy: 'owner@example.com' })).resolves.toBe(true);
      const { email } = await received;
      expect(email.body).toContain(LINK);
      expect(email.body).toContain('owner@example.com invited you');
    } finally {
      mailer.onModuleDestroy();
      await new Promise<void>((resolve) => sink.stop(resolve));
    }
  });

  it('answers false, and logs without the link, when the server cannot be reached', async () => {
    const warnings: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    const mailer = mailerFor({ url: `smtp://127.0.0.1:${await freePort()}`, from: 'console@example.com' });
    try {
      await expect(mailer.send({ to: 'new@example.com', link: LINK, expiresAt: new Date(), invitedBy: null })).resolves.toBe(false);
      expect(warnings.join('\n')).toMatch(/Could not mail an invitation \(E[A-Z]+\)/);
      expect(warnings.join('\n')).not.toContain('c2VjcmV0');
    } finally {
      warn.mockRestore();
      mailer.onModuleDestroy();
    }
  });

  it('sends nothing when no server is configured', async () => {
    await expect(mailerFor(undefined).send({ to: 'new@example.com', link: LINK, expiresAt: new Date(), invitedBy: null })).resolves.toBe(false);
  });
});
