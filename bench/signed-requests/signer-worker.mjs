// One thread of the load generator's SigningPool (signer.mjs): signs `count` requests of the shape it is sent, each
// with its own nonce and the current `created`, and answers them with when they were made.
import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { signedHeaders } from './signer.mjs';

const privateKey = createPrivateKey(workerData.privateKeyPem);
parentPort.on('message', ({ id, request, count }) => {
  const items = [];
  for (let i = 0; i < count; i += 1) {
    items.push({ headers: signedHeaders(request, privateKey), madeAt: Date.now() });
  }
  parentPort.postMessage({ id, items });
});
