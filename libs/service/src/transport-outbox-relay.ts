import { Injectable, Type } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PATTERNS } from '@game-wallet/contracts';
import { OutboxForward, OutboxRelayService } from '@game-wallet/database';
import { RedisStreamsClient } from '@game-wallet/transport';
import { DataSource } from 'typeorm';

/**
 * The relay of a service whose outbox is not identity's: each batch goes to identity's dispatcher over the transport
 * (`identity.events.ingest`, as the system) and is deleted from the outbox only once identity has stored it; an
 * answer that never comes (identity or Redis down, a deadline passed) leaves it for the next pass, and identity
 * ignores the ids it already has.
 */
export function transportOutboxRelay(schema: string): Type<OutboxRelayService> {
  @Injectable()
  class TransportOutboxRelay extends OutboxRelayService {
    constructor(
      @InjectDataSource() dataSource: DataSource,
      private readonly transport: RedisStreamsClient,
    ) {
      super(dataSource, schema);
    }

    protected forward: OutboxForward = async (events) => {
      await this.transport.call(PATTERNS.identity.ingestEvents, { payload: { events }, principal: { kind: 'system' } });
    };
  }
  return TransportOutboxRelay;
}
