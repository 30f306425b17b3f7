import { Logger } from '@nestjs/common';
import { RejectionLog } from './rejection-log';

describe(RejectionLog.name, () => {
  let lines: string[];
  let counted: string[];
  let log: RejectionLog;

  beforeEach(() => {
    jest.useFakeTimers();
    lines = [];
    counted = [];
    const logger = { warn: (line: string) => lines.push(line) } as unknown as Logger;
    log = new RejectionLog(logger, 'entries of s', (reason) => counted.push(reason));
  });

  afterEach(() => jest.useRealTimers());

  it('counts every rejection but writes at most one line a minute', () => {
    log.rejected('unsigned');
    for (let index = 0; index < 500; index += 1) {
      log.rejected('bad-signature');
    }
    expect(counted).toHaveLength(501);
    expect(lines).toEqual(['Dropped transport messages not signed by an app allowed to send them (entries of s): 1 unsigned']);
    jest.advanceTimersByTime(59_000);
    expect(lines).toHaveLength(1);
  });

  it('writes what followed a line a minute after it, even when no rejection comes later', () => {
    log.rejected('unsigned');
    log.rejected('unknown-key');
    log.rejected('unknown-key');
    log.rejected('refused-sender');
    jest.advanceTimersByTime(60_000);
    expect(lines).toEqual([
      'Dropped transport messages not signed by an app allowed to send them (entries of s): 1 unsigned',
      'Dropped transport messages not signed by an app allowed to send them (entries of s): 2 unknown-key, 1 refused-sender',
    ]);
    jest.advanceTimersByTime(120_000);
    expect(lines).toHaveLength(2);
  });

  it('writes at once again after a quiet minute', () => {
    log.rejected('unsigned');
    jest.advanceTimersByTime(61_000);
    log.rejected('bad-signature');
    expect(lines).toHaveLength(2);
  });
});
