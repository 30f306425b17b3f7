import { PlayerEntity } from '../players/entities/player.entity';

/** Every entity of the `core` schema. */
export const CORE_ENTITIES = [PlayerEntity];
