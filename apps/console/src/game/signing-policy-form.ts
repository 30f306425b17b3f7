import type { SigningOperation, SigningPolicy } from '@game-wallet/contracts/views';

export const OPERATIONS: { value: SigningOperation; label: string }[] = [
  { value: 'message', label: 'Messages' },
  { value: 'transaction', label: 'Transactions' },
  { value: 'typed-data', label: 'Typed data (EIP-712)' },
];

/**
 * Every field of a policy in the order the form shows them, which the audit trail lists a change's fields in too
 * (the values are placeholders; typed as a policy so that a field added to it is added here as well).
 */
export const POLICY_FIELD_ORDER: SigningPolicy = {
  operations: { apiKey: [], profile: [] },
  evm: { chainIds: null, maxValueWei: null, maxFeeWei: null, contracts: null, typedDataPrimaryTypes: null },
  sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: null },
  sui: { packages: null, maxGasBudget: null, allowTransfers: true },
};

/** The policy as the form edits it: lists as text (one item a line, or commas), limits as text, empty meaning any. */
export interface PolicyForm {
  apiKey: SigningOperation[];
  profile: SigningOperation[];
  evmChainIds: string;
  evmMaxValueWei: string;
  evmMaxFeeWei: string;
  evmContracts: string;
  evmTypedDataPrimaryTypes: string;
  solPrograms: string;
  solMaxLamports: string;
  solMaxPriorityMicroLamports: string;
  suiPackages: string;
  suiAllowTransfers: boolean;
  suiMaxGasBudget: string;
}

const listText = (list: string[] | null): string => (list === null ? '' : list.join('\n'));
const listOf = (text: string): string[] | null => {
  const items = text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? null : items;
};
const limitOf = (text: string): string | null => (text.trim() === '' ? null : text.trim());

export function formOfPolicy(policy: SigningPolicy): PolicyForm {
  return {
    apiKey: policy.operations.apiKey,
    profile: policy.operations.profile,
    evmChainIds: listText(policy.evm.chainIds),
    evmMaxValueWei: policy.evm.maxValueWei ?? '',
    evmMaxFeeWei: policy.evm.maxFeeWei ?? '',
    evmContracts: listText(policy.evm.contracts),
    evmTypedDataPrimaryTypes: listText(policy.evm.typedDataPrimaryTypes),
    solPrograms: listText(policy.sol.programs),
    solMaxLamports: policy.sol.maxLamports ?? '',
    solMaxPriorityMicroLamports: policy.sol.maxPriorityMicroLamports ?? '',
    suiPackages: listText(policy.sui.packages),
    suiAllowTransfers: policy.sui.allowTransfers,
    suiMaxGasBudget: policy.sui.maxGasBudget ?? '',
  };
}

/** The policy to save; the platform checks each field and names the one it refuses. */
export function policyOfForm(form: PolicyForm): SigningPolicy {
  const ordered = (operations: SigningOperation[]) => OPERATIONS.map((operation) => operation.value).filter((operation) => operations.includes(operation));
  return {
    operations: { apiKey: ordered(form.apiKey), profile: ordered(form.profile) },
    evm: {
      chainIds: listOf(form.evmChainIds),
      maxValueWei: limitOf(form.evmMaxValueWei),
      maxFeeWei: limitOf(form.evmMaxFeeWei),
      contracts: listOf(form.evmContracts),
      typedDataPrimaryTypes: listOf(form.evmTypedDataPrimaryTypes),
    },
    sol: { programs: listOf(form.solPrograms), maxLamports: limitOf(form.solMaxLamports), maxPriorityMicroLamports: limitOf(form.solMaxPriorityMicroLamports) },
    sui: { packages: listOf(form.suiPackages), allowTransfers: form.suiAllowTransfers, maxGasBudget: limitOf(form.suiMaxGasBudget) },
  };
}
