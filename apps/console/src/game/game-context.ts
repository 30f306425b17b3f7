import { useOutletContext } from 'react-router';
import type { GameView } from '@game-wallet/contracts/views';

/** The game whose tab is showing (given by the game page to its tabs). */
export const useCurrentGame = () => useOutletContext<GameView>();
