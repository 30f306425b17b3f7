import { TEST_REDIS_URL, uniquePrefix, waitFor } from '@game-wallet/testing';
import { BroadcastSubscriber } from '@game-wallet/transport';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Following broadcasts when Redis refuses them for a while: an ACL change that takes a channel away disconnects the
 * subscriber, and its re-subscription is refused (NOPERM) until the ACL gives the channel back. The process keeps
 * running (an unhandled refusal would end it), and once allowed again it follows the channel and resynchronises.
 */
describe('broadcast subscriber, when Redis refuses its channels for a while', () => {
  const prefix = uniquePrefix('broadcasts');
  const channel = `${prefix}:events:probe`;
  const user = `gwt-broadcasts-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(16).toString('hex');
  const admin = new Redis(TEST_REDIS_URL);
  let subscriber: BroadcastSubscriber;

  const allow = (channels: string) => admin.call('ACL', 'SETUSER', user, 'on', `>${password}`, 'resetchannels', channels, '+subscribe', '+ping', '+client', '+info');

  beforeAll(async () => {
    await allow(`&${channel}`);
    const url = new URL(TEST_REDIS_URL);
    url.username = user;
    url.password = password;
    subscriber = new BroadcastSubscriber(url.toString(), 'probe');
  });

  afterAll(async () => {
    await subscriber.close();
    await admin.call('ACL', 'DELUSER', user);
    admin.disconnect();
  });

  it('keeps the process up while re-subscribing is refused, then follows the channel again and resynchronises', async () => {
    const received: string[] = [];
    let resyncs = 0;
    await subscriber.on(channel, (message) => received.push(message));
    subscriber.onResync(() => {
      resyncs += 1;
    });
    await admin.publish(channel, 'before');
    await waitFor(() => received.includes('before'), 5000, 'the first broadcast');

    // Redis disconnects a subscriber whose channel is taken away; its reconnections are refused the channel.
    await allow(`&${prefix}:events:other`);
    await waitFor(() => resyncs >= 1, 5000, 'the reconnection');
    await sleep(1500);
    expect(subscriber.connected).toBe(true);

    await allow(`&${channel}`);
    const resyncsBefore = resyncs;
    await waitFor(() => resyncs > resyncsBefore, 5000, 'the resynchronisation once subscribed again');
    await admin.publish(channel, 'after');
    await waitFor(() => received.includes('after'), 5000, 'a broadcast after the refusal');
  });
});
