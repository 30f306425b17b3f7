import type { AppName } from '@game-wallet/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './processes';

/** How an app's image runs it: NODE_OPTIONS (the memory budget), glibc's malloc arenas, and the node flags of its command. */
export interface ImageRuntime {
  nodeOptions: string;
  /** `MALLOC_ARENA_MAX` of the runtime stage, when it sets one */
  mallocArenaMax?: string;
  nodeFlags: string[];
}

/**
 * How the image of `app` runs it, read from the Dockerfile: NODE_OPTIONS (the memory budget) and the node flags of
 * the CMD of the app's own stage, or else of the shared runtime stage. The benchmarks run the apps as their images do.
 */
export function imageRuntime(app: AppName, dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')): ImageRuntime {
  const stages = Object.fromEntries(dockerfile.split(/^(?=FROM )/m).map((stage) => [/^FROM \S+ AS (\S+)/.exec(stage)?.[1], stage]));
  const commandOf = (stage: string): string | undefined => /^CMD (\[.*\])$/m.exec(stages[stage] ?? '')?.[1];
  const nodeOptions = /NODE_OPTIONS="([^"]*)"/.exec(stages.runtime ?? '')?.[1];
  const command = commandOf(`app-${app}`) ?? commandOf('runtime');
  if (nodeOptions === undefined || command === undefined) {
    throw new Error(`The Dockerfile's runtime stage sets no NODE_OPTIONS, or ${app} has no CMD in exec form`);
  }
  const mallocArenaMax = /MALLOC_ARENA_MAX=(\d+)/.exec(stages.runtime ?? '')?.[1];
  return { nodeOptions, ...(mallocArenaMax === undefined ? {} : { mallocArenaMax }), nodeFlags: (JSON.parse(command) as string[]).slice(1, -1) };
}
