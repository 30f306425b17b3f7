/**
 * Recognises bytes a Solana validator would take as a transaction, so that message signing (Ed25519 over the raw
 * bytes, exactly what a transaction signature is) can refuse them, as Phantom does. Solana has no message prefix of
 * its own, so this is the domain separation EIP-191 and Sui's intent give the other chains.
 *
 * Refused: a legacy message, a versioned (v0) message, or a whole wire transaction (compact-u16 signature count,
 * 64-byte signatures, then a message) that parses exactly, every byte used. The header is not sanitised further:
 * whatever has the shape of a transaction is refused, so a validator's looser reading can never make one signable.
 */
export function isSolanaTransaction(bytes: Uint8Array): boolean {
  return parsesAsMessage(bytes, 0) || parsesAsWireTransaction(bytes);
}

const PUBLIC_KEY = 32;
const SIGNATURE = 64;
const BLOCKHASH = 32;

/**
 * What the reader throws when the bytes are not a message: one object made once, as every message a game signs is
 * read here before it is signed, and an error made afresh would capture a stack each time (about 4 µs, twice for each message).
 * Only the parse functions below catch it.
 */
const NOT_A_MESSAGE = new RangeError('not a Solana message');

/** A forward-only reader; any read past the end throws {@link NOT_A_MESSAGE}, which means "not a transaction". */
class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public offset: number,
  ) {}

  get done(): boolean {
    return this.offset === this.bytes.length;
  }

  byte(): number {
    if (this.offset >= this.bytes.length) {
      throw NOT_A_MESSAGE;
    }
    return this.bytes[this.offset++];
  }

  skip(length: number): void {
    if (length > this.bytes.length - this.offset) {
      throw NOT_A_MESSAGE;
    }
    this.offset += length;
  }

  /** Solana's compact-u16 ("shortvec"): 7 bits a byte, at most 3 bytes. */
  compactU16(): number {
    let value = 0;
    for (let index = 0; index < 3; index += 1) {
      const byte = this.byte();
      value |= (byte & 0x7f) << (7 * index);
      if ((byte & 0x80) === 0) {
        if (value > 0xffff) {
          throw NOT_A_MESSAGE;
        }
        return value;
      }
    }
    throw NOT_A_MESSAGE;
  }

  /** A compact-u16 count, then that many items of `size` bytes. */
  array(size: number): number {
    const count = this.compactU16();
    this.skip(count * size);
    return count;
  }
}

/** A Solana message as the wallet needs it: who must sign (the first `requiredSignatures` account keys). */
export interface SolanaMessage {
  versioned: boolean;
  requiredSignatures: number;
  accountKeys: Uint8Array[];
  /** each instruction's program (an index into the static account keys, where programs always are) and data */
  instructions: { programIdIndex: number; data: Uint8Array }[];
}

/** A transaction in wire format: its signature slots and the message they sign. */
export interface SolanaWireTransaction {
  signatureCount: number;
  /** where the signature slots start (64 bytes each) */
  signaturesOffset: number;
  messageOffset: number;
  message: SolanaMessage;
}

/** Reads a whole message from `offset`; throws {@link NOT_A_MESSAGE} unless the bytes are exactly one message. */
function readMessage(bytes: Uint8Array, offset: number): SolanaMessage {
  const reader = new Reader(bytes, offset);
  let versioned = false;
  if ((bytes[offset] & 0x80) !== 0) {
    // A versioned message: 0x80 | version. Only version 0 exists; refuse any version, as future ones may be valid.
    versioned = true;
    reader.skip(1);
  }
  const requiredSignatures = reader.byte();
  reader.skip(2); // read-only signed, read-only unsigned
  const keyCount = reader.compactU16();
  const keysOffset = reader.offset;
  reader.skip(keyCount * PUBLIC_KEY);
  const accountKeys = Array.from({ length: keyCount }, (_, index) => bytes.subarray(keysOffset + index * PUBLIC_KEY, keysOffset + (index + 1) * PUBLIC_KEY));
  reader.skip(BLOCKHASH);
  const instructionCount = reader.compactU16();
  const instructions: SolanaMessage['instructions'] = [];
  for (let index = 0; index < instructionCount; index += 1) {
    const programIdIndex = reader.byte();
    reader.array(1); // account indexes
    const dataLength = reader.compactU16();
    const dataOffset = reader.offset;
    reader.skip(dataLength);
    instructions.push({ programIdIndex, data: bytes.subarray(dataOffset, dataOffset + dataLength) });
  }
  if (versioned) {
    const lookups = reader.compactU16();
    for (let index = 0; index < lookups; index += 1) {
      reader.skip(PUBLIC_KEY);
      reader.array(1); // writable indexes
      reader.array(1); // read-only indexes
    }
  }
  if (!reader.done) {
    throw NOT_A_MESSAGE;
  }
  return { versioned, requiredSignatures, accountKeys, instructions };
}

function parsesAsMessage(bytes: Uint8Array, offset: number): boolean {
  try {
    readMessage(bytes, offset);
    return true;
  } catch {
    return false;
  }
}

/** The transaction in wire format (compact-u16 signature count, signatures, message), or null when it is not one. */
export function parseSolanaWireTransaction(bytes: Uint8Array): SolanaWireTransaction | null {
  try {
    const reader = new Reader(bytes, 0);
    const signatureCount = reader.compactU16();
    const signaturesOffset = reader.offset;
    reader.skip(signatureCount * SIGNATURE);
    return { signatureCount, signaturesOffset, messageOffset: reader.offset, message: readMessage(bytes, reader.offset) };
  } catch {
    return null;
  }
}

function parsesAsWireTransaction(bytes: Uint8Array): boolean {
  return parseSolanaWireTransaction(bytes) !== null;
}
