export * from './error-payload';
export * from './redis-streams.client';
export * from './redis-streams.context';
export * from './redis-streams.server';
export * from './transport-options';
export * from './ping.controller';
export * from './tick-batcher';
export * from './broadcast-subscriber';
