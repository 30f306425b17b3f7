import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { OutboxEventInput } from '@game-wallet/contracts';
import { OutboxForward, OutboxRelayService } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Identity's own outbox goes to the dispatcher in the transaction that empties it (one database: the events, their
 * deliveries and their jobs commit together). The other services' relays hand theirs over the transport
 * ({@link ingest}), and delete them once identity has answered.
 */
@Injectable()
export class IdentityOutboxRelay extends OutboxRelayService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
  ) {
    super(dataSource, 'identity');
  }

  protected forward: OutboxForward = async (events, manager) => {
    await this.dispatcher.ingest(events, manager);
  };

  /** The batch's deliveries are committed: this replica's workers look now. */
  protected override relayed(): void {
    this.dispatcher.wake();
  }

  /** A batch from another service's outbox: stored, with its deliveries and jobs, in one transaction. */
  async ingest(events: OutboxEventInput[]): Promise<{ accepted: number }> {
    const accepted = await this.dataSource.transaction((manager) => this.dispatcher.ingest(events, manager));
    this.dispatcher.wake();
    return { accepted };
  }
}
