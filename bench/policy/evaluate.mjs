// The rules engine's own cost, in a process of its own (the benchmark's process carries the load generator's heap):
// the wallet's compiled engine evaluating the benchmark's transaction under the 50 rules, µs per evaluation, velocity
// answered at once (its count in Redis is in the paired scenario's CPU table). Prints one number.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fiftyRules, shopTransfer } from './rules.mjs';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..', '..');
const { evaluate } = require(join(root, 'dist/out-tsc/apps/wallet/src/policies/rules-engine'));
const { CHAIN_SIGNERS } = require(join(root, 'dist/out-tsc/apps/wallet/src/chains'));

const rules = fiftyRules();
const decoded = await CHAIN_SIGNERS.evm.transaction(shopTransfer());
const credential = { kind: 'apiKey', apiKeyId: '0190a0a0-0000-7000-8000-0000000000ff' };
const room = async () => undefined;
// Each evaluation reads a request's facts of its own, as the wallet does (its calldata decoded again).
const once = () => evaluate(rules, credential, { ...decoded.facts }, decoded.live, room);
const first = await once();
if (first.decision !== 'accept' || first.ruleId !== 'shop-transfers') throw new Error(`the 50 rules decided ${first.decision} by ${first.ruleId}`);
for (const until = performance.now() + 1000; performance.now() < until; ) await once();
const started = process.cpuUsage();
let evaluated = 0;
for (const until = performance.now() + 3000; performance.now() < until; evaluated += 1) await once();
const used = process.cpuUsage(started);
console.log(Math.round(((used.user + used.system) / evaluated) * 10) / 10);
