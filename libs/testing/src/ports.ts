import { createServer } from 'node:net';

/**
 * Ports are handed out below the kernel's ephemeral range (32768 and up on Linux). A port the kernel picks for
 * `listen(0)` comes from that range, which is also where outgoing connections (to Redis, PostgreSQL) get their local
 * port: between the test choosing it and the app binding it, one of them could take it (EADDRINUSE). Each Jest worker
 * draws from its own block, so parallel suites do not hand out the same port either.
 */
const FIRST_PORT = 20_000;
const BLOCK = 1_500;
const BLOCKS = 8;

const worker = Number(process.env.JEST_WORKER_ID ?? '1');
const blockStart = FIRST_PORT + ((((worker - 1) % BLOCKS) + BLOCKS) % BLOCKS) * BLOCK;
// Start at a different place in the block each run, so a port a previous run left in TIME_WAIT is not the first tried.
let next = blockStart + Math.floor(Math.random() * BLOCK);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A TCP port free right now, outside the ephemeral range and not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < BLOCK; attempt += 1) {
    const port = next;
    next = next + 1 >= blockStart + BLOCK ? blockStart : next + 1;
    if (await canListen(port)) {
      return port;
    }
  }
  throw new Error(`No free port in ${blockStart}-${blockStart + BLOCK - 1}`);
}
