import { AppError, ChainName, Criterion, EvmTransactionRequest, NumberOperator, SignatureView, SignedTransactionView, SigningOperation, TransactionRequest, TypedDataRequest } from '@game-wallet/contracts';

/**
 * What every chain's file exports: one signing request, from what the caller sent to the answer, in the steps the
 * signing pipeline (`SigningService`) runs in order. A new chain is one file that implements this; the pipeline, the
 * audit trail and the key custody stay as they are.
 */
export interface ChainSigner<Transaction = EvmTransactionRequest | string> {
  readonly chain: ChainName;
  /**
   * Each operation's request decoded, before the wallet is looked up: 400 naming the field when it cannot be. Nothing
   * is signed or hashed for the wallet yet. A chain without typed data leaves `typedData` out.
   */
  message(message: Buffer): DecodedRequest;
  /** The transaction as the request holds it: EVM's fields, or the other chains' base64 bytes. */
  transaction(transaction: Transaction): Promise<DecodedRequest>;
  typedData?(typedData: TypedDataRequest): DecodedRequest;
  /**
   * One of this chain's criteria (see `CRITERION_SCOPE`) against the facts its `decode` read: whether it holds, and
   * the observed value that decided it. It reads nothing but `facts` (and `live`, when the request itself is at hand:
   * a dry run or a signature, never a replay), so a policy can be tried over stored attempts. What it cannot decide —
   * a value that could not be decoded, a field the request does not have — is `unknown`, never `holds`.
   */
  criterion(criterion: Criterion, facts: SigningFacts, live?: LiveFacts): CriterionOutcome;
  /**
   * What is wrong with one of this chain's criteria as a policy states it, beyond its JSON shape (an ABI fragment
   * that does not parse, an unknown instruction name…), or undefined: checked when a policy is saved (400).
   */
  criterionProblem(criterion: Criterion): string | undefined;
}

/**
 * What the rules read of a request, decoded: plain JSON (numbers as decimal strings), stored with every signing
 * attempt so that a draft policy can be replayed over past traffic. Never the message or payload itself beyond what a
 * criterion reads; a message's bytes are never stored (`live` carries them while the request is at hand).
 */
export interface SigningFacts {
  operation: SigningOperation;
  chain: ChainName;
  /** the chain's native units this request moves (wei, lamports, MIST), for velocity limits; null when it cannot be counted */
  nativeValue: string | null;
  /** the chain's own facts; each chain's file documents its shape */
  [fact: string]: unknown;
}

/** A number read from a request against a criterion's bound, by the criterion's operator. */
export const COMPARE_NUMBERS: Readonly<Record<NumberOperator, (observed: bigint, bound: bigint) => boolean>> = {
  '<=': (observed, bound) => observed <= bound,
  '>=': (observed, bound) => observed >= bound,
  '<': (observed, bound) => observed < bound,
  '>': (observed, bound) => observed > bound,
  '==': (observed, bound) => observed === bound,
};

export interface LiveFacts {
  message?: Uint8Array;
}

export interface CriterionOutcome {
  result: 'holds' | 'fails' | 'unknown';
  /** the value read from the request that decided it, e.g. `value 11 wei`, `program Tokenkeg…` */
  observed: string;
  /** unknown only because what it reads is never stored (a message's bytes): a replay cannot decide it */
  notStored?: true;
}

/** The request decoded by its chain's signer (see `ChainSigner`). */
export async function decode(signer: ChainSigner, request: SigningRequest): Promise<DecodedRequest> {
  switch (request.operation) {
    case 'message':
      return signer.message(request.message);
    case 'transaction':
      if (request.transaction.chain !== signer.chain) {
        throw unsupported(signer.chain, 'transaction');
      }
      return signer.transaction(request.transaction.transaction);
    case 'typed-data':
      if (signer.typedData === undefined) {
        throw unsupported(signer.chain, 'typed-data');
      }
      return signer.typedData(request.typedData);
  }
}

/** How a chain signs a message: the bytes its signature primitive takes, and the signature as the chain writes it. */
export interface MessageSigning {
  payload(message: Uint8Array): Uint8Array;
  format(signature: Uint8Array): string;
}

/** A message, which no policy rule reads beyond its operation: signed as the chain signs messages, recorded under its own bytes. */
export function decodedMessage(chain: ChainName, message: Buffer, signing: MessageSigning): DecodedRequest {
  return {
    facts: { operation: 'message', chain, nativeValue: '0', length: message.length },
    live: { message },
    forWallet: (address) => ({
      audited: message,
      sign: async (signWithKey) => ({ view: { chain, address, signature: signing.format(await signWithKey(signing.payload(message))) }, signed: message }),
    }),
  };
}

/** A signing request as the wallet receives it: one operation on one chain. */
export type SigningRequest =
  | { operation: 'message'; chain: ChainName; message: Buffer }
  | { operation: 'transaction'; chain: ChainName; transaction: TransactionRequest }
  | { operation: 'typed-data'; chain: 'evm'; typedData: TypedDataRequest };

export interface DecodedRequest {
  /** What the rules read of the request (see `SigningFacts`). */
  readonly facts: SigningFacts;
  /** What a criterion may read only while the request is at hand (a message's bytes); never stored. */
  readonly live?: LiveFacts;
  /** The checks that need the wallet's address on this chain (400: not a signer, another sender); then the request ready to sign. */
  forWallet(address: string): PreparedSigning;
}

export interface PreparedSigning {
  /** What a refusal is recorded under in the audit trail (its SHA-256): the bytes that were to be signed, or the request as received. */
  readonly audited: Uint8Array;
  /**
   * Signs with the wallet's chain key through `signWithKey` (the chain's signature primitive over a payload: see
   * chains/signature-primitives.ts); answers the view and what the allowed signature is recorded under in the audit trail.
   */
  sign(signWithKey: SignWithChainKey): Promise<{ view: SignatureView | SignedTransactionView; signed: Uint8Array }>;
}

/**
 * The chain's signature primitive over `payload` with the wallet's key for that chain: the key is opened, used and
 * zeroed by the signing pipeline, on the event loop or a worker thread; the chain's code never holds it.
 */
export type SignWithChainKey = (payload: Uint8Array) => Promise<Uint8Array>;

/** The request as received, for a refusal recorded before anything was decoded (the operation was not allowed). */
export function receivedBytes(request: SigningRequest): Uint8Array {
  switch (request.operation) {
    case 'message':
      return request.message;
    case 'typed-data':
      return Buffer.from(JSON.stringify(request.typedData));
    case 'transaction':
      return request.transaction.chain === 'evm' ? Buffer.from(JSON.stringify(request.transaction.transaction)) : Buffer.from(request.transaction.transaction, 'base64');
  }
}

/** A request whose operation the chain has none of (typed data is EVM's alone): 400. */
export function unsupported(chain: ChainName, operation: SigningOperation): AppError {
  return new AppError('VALIDATION_FAILED', `chain: ${chain} has no ${operation} signing`);
}

export const bytesOfHex = (hex: string): Uint8Array => Buffer.from(hex.replace(/^0x/, ''), 'hex');
