import { Writable } from 'node:stream';
import { createRootLogger } from './logger';

describe('log redaction', () => {
  it('censors keys, tokens, passwords and key material wherever the apps log them (the real logger factory)', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createRootLogger({ service: 'test', level: 'info', destination: sink });
    logger.info({
      password: 'hunter2',
      req: { headers: { 'x-api-key': 'gk_live_secret', authorization: 'Bearer eyJhbGciOi' } },
      body: { mnemonic: 'abandon abandon about', privateKey: '0xdeadbeef', jwt: 'eyJ.x.y', key: 'gk_secret2' },
    });
    const output = lines.join('');
    for (const secret of ['hunter2', 'gk_live_secret', 'eyJhbGciOi', 'abandon abandon', '0xdeadbeef', 'eyJ.x.y', 'gk_secret2']) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('[redacted]');
  });
});
