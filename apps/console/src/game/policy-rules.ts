import { CRITERION_SCOPE, ruleSentence } from '@game-wallet/contracts/signing-rules';
import type { CriterionType, PolicyRule } from '@game-wallet/contracts/views';
import type { ChainName, SigningOperation } from '@game-wallet/contracts/views';

/**
 * The console's side of the signing rules (SPEC §11): what the editor calls each criterion type and how it edits it.
 * Which operations and chains a type reads, and how a rule reads as one sentence, are the contract's own
 * (`CRITERION_SCOPE`, `ruleSentence`: a module with no dependency, which the console bundles), so the console shows a
 * rule exactly as the platform words its decisions.
 */

/** How a criterion's fields are edited. */
export type CriterionShape = 'number' | 'list' | 'allowed' | 'evmData' | 'typedDataField' | 'messagePattern' | 'solInstruction' | 'velocity';

export interface CriterionKind {
  /** the name the criterion editor offers it by */
  label: string;
  shape: CriterionShape;
  /** which operations and chains it reads (the contract's `CRITERION_SCOPE`) */
  operations: SigningOperation[];
  chains: ChainName[];
  /** number and list criteria: what their values are */
  hint?: string;
}

const EVERY_CHAIN: ChainName[] = ['evm', 'sol', 'sui'];

/** How the editor offers each criterion type, in the order it lists them. */
const EDITING: Record<CriterionType, Pick<CriterionKind, 'label' | 'shape' | 'hint'>> = {
  evmAddress: { label: 'Address called or paid', shape: 'list', hint: '0x addresses' },
  evmValue: { label: 'Value (wei)', shape: 'number', hint: 'wei, in decimal digits' },
  evmChainId: { label: 'Chain id', shape: 'list', hint: 'decimal chain ids (1, 8453…)' },
  evmFee: { label: 'Most fees (wei)', shape: 'number', hint: 'gas limit × the highest fee per gas, in wei' },
  evmContractCreation: { label: 'Contract creation', shape: 'allowed' },
  evmData: { label: 'Function called', shape: 'evmData' },
  evmTypedDataVerifyingContract: { label: 'Verifying contract', shape: 'list', hint: '0x addresses' },
  evmTypedDataPrimaryType: { label: 'Primary type', shape: 'list', hint: 'EIP-712 type names (Order, Permit…)' },
  evmTypedDataChainId: { label: "Domain's chain id", shape: 'list', hint: 'decimal chain ids' },
  evmTypedDataField: { label: 'A typed-data field', shape: 'typedDataField' },
  messagePattern: { label: 'Message pattern', shape: 'messagePattern' },
  messageLength: { label: 'Message length (bytes)', shape: 'number', hint: 'bytes' },
  solProgram: { label: 'Programs called', shape: 'list', hint: 'base58 program ids' },
  solInstruction: { label: 'Instructions', shape: 'solInstruction' },
  solLamports: { label: 'Lamports moved', shape: 'number', hint: 'lamports (1 SOL is 10⁹)' },
  solComputeUnitPrice: { label: 'Compute unit price', shape: 'number', hint: 'micro-lamports per compute unit' },
  solPriorityFee: { label: 'Priority fee', shape: 'number', hint: 'micro-lamports: unit price × unit limit' },
  suiMoveCall: { label: 'Move calls', shape: 'list', hint: '0x<package>::<module>::<function>, * for any module or function' },
  suiTransfers: { label: 'Transfers of coins or objects', shape: 'allowed' },
  suiGasBudget: { label: 'Gas budget (MIST)', shape: 'number', hint: 'MIST (1 SUI is 10⁹)' },
  suiPublish: { label: 'Publish or Upgrade', shape: 'allowed' },
  velocity: { label: 'Velocity (signatures or value per time)', shape: 'velocity' },
};

/** Every criterion type: how the editor offers it, and what it reads. */
export const CRITERIA = Object.fromEntries(
  (Object.keys(EDITING) as CriterionType[]).map((type) => [type, { ...EDITING[type], operations: [...CRITERION_SCOPE[type].operations], chains: [...CRITERION_SCOPE[type].chains] }]),
) as Record<CriterionType, CriterionKind>;

export const CRITERION_TYPES = Object.keys(CRITERIA) as CriterionType[];

/** The chains a rule applies to: those it names, or every chain. */
export const ruleChains = (rule: Pick<PolicyRule, 'chains'>): ChainName[] => rule.chains ?? EVERY_CHAIN;

/**
 * Whether a criterion type can be read by a rule of this operation and these chains (none: every chain), as the
 * platform checks it: a rule for transactions on every chain cannot read an EVM value. Velocity bounds what is
 * accepted, so only accept rules have it.
 */
export function criterionFits(type: CriterionType, rule: Pick<PolicyRule, 'operation' | 'chains' | 'action'>): boolean {
  const kind = CRITERIA[type];
  return kind.operations.includes(rule.operation) && ruleChains(rule).every((chain) => kind.chains.includes(chain)) && (type !== 'velocity' || rule.action === 'accept');
}

/** A rule as one sentence, as the platform words it: `Accept transactions on evm from API keys when the value is at most 10 wei.` */
export const ruleText = (rule: PolicyRule): string => ruleSentence(rule);
