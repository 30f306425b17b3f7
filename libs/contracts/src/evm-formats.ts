/** How EVM values are written on the wire, shared by the gateway's checks and the wallet's. */

/** A 20-byte address: `0x` and 40 hex digits, any case (EIP-55 checksums are not required). */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A whole number up to 256 bits: 1–78 decimal digits or `0x` and 1–64 hex digits (its range is checked apart). */
export const EVM_QUANTITY = /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/;

export const UINT64_MAX = 2n ** 64n - 1n;
export const UINT256_MAX = 2n ** 256n - 1n;
