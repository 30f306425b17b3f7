import { describeServiceHealth } from '@game-wallet/testing';

describeServiceHealth('identity');
