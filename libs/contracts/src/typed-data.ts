import { freeFormJsonProblem } from './free-form-json';
import { TypedDataRequest } from './wallet';

/** Bounds of EIP-712 typed data (SPEC §11), checked by the gateway and again by the wallet. */
export const TYPED_DATA_LIMITS = {
  /** struct types in `types` (besides `EIP712Domain`) */
  maxTypes: 64,
  /** fields of one struct type */
  maxFields: 128,
  /** characters of a type or field name, or of a field's type */
  maxNameLength: 256,
  /** array dimensions of a field's type (`uint8[][2]` has 2) */
  maxDimensions: 8,
  /**
   * paths from `primaryType` through the struct types it uses: ethers walks every one of them (its check for circular
   * types remembers nothing), so 31 layers of two types that each use both would take it hours
   */
  maxTypePaths: 1024,
} as const;

/** `EIP712Domain` describes the domain; it is derived from `domain`, never signed as a struct of its own. */
export const EIP712_DOMAIN_TYPE = 'EIP712Domain';

const isNameStart = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36; // A-Z a-z _ $
const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const isNameChar = (code: number): boolean => isNameStart(code) || isDigit(code);

/**
 * An EIP-712 type as the grammar `^[A-Za-z_$][A-Za-z0-9_$]*(\[\d*\])*$` reads it: its base name and how many array
 * dimensions follow, or `undefined` when it does not match, is longer than 256 characters or has more than 8
 * dimensions. One pass over the characters: the time is linear in the length whatever the input (no regex).
 */
export function parseTypedDataType(type: string): { base: string; dimensions: number } | undefined {
  if (type.length === 0 || type.length > TYPED_DATA_LIMITS.maxNameLength || !isNameStart(type.charCodeAt(0))) {
    return undefined;
  }
  let at = 1;
  while (at < type.length && isNameChar(type.charCodeAt(at))) {
    at += 1;
  }
  const base = type.slice(0, at);
  let dimensions = 0;
  while (at < type.length) {
    if (type[at] !== '[') {
      return undefined;
    }
    at += 1;
    while (at < type.length && isDigit(type.charCodeAt(at))) {
      at += 1;
    }
    if (type[at] !== ']') {
      return undefined;
    }
    at += 1;
    dimensions += 1;
    if (dimensions > TYPED_DATA_LIMITS.maxDimensions) {
      return undefined;
    }
  }
  return { base, dimensions };
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `name` is an identifier (a struct or field name): the grammar's name part alone, at most 256 characters. */
export function isTypedDataName(name: string): boolean {
  return parseTypedDataType(name)?.dimensions === 0;
}

/**
 * What is wrong with the shape of EIP-712 typed data, or `undefined`: type and field names and field types outside
 * the EIP-712 grammar, more than 64 types or 128 fields in one, a `primaryType` that `types` does not define as its own
 * key (never a name inherited from `Object.prototype`), or a `domain` or `message` past the free-form JSON bounds.
 * Linear in the size of the request. What the types mean (unknown types, values that do not fit) is ethers' to say
 * when it hashes; this check makes sure nothing it is given costs more than its size.
 */
export function typedDataProblem(request: TypedDataRequest): string | undefined {
  for (const field of ['domain', 'types', 'message'] as const) {
    if (!isObject(request[field])) {
      return `${field}: must be a JSON object`;
    }
  }
  if (typeof request.primaryType !== 'string') {
    return 'primaryType: must be a string';
  }
  const types = Object.entries(request.types);
  const structs = types.filter(([name]) => name !== EIP712_DOMAIN_TYPE);
  if (structs.length > TYPED_DATA_LIMITS.maxTypes) {
    return `types: must define at most ${TYPED_DATA_LIMITS.maxTypes} types`;
  }
  for (const [name, fields] of types) {
    const where = `types.${name.length > 40 ? `${name.slice(0, 40)}…` : name}`;
    if (!isTypedDataName(name)) {
      return `${where}: a type name must be an identifier of at most ${TYPED_DATA_LIMITS.maxNameLength} characters (A-Z, a-z, 0-9, _ and $, not starting with a digit)`;
    }
    if (!Array.isArray(fields)) {
      return `${where}: must be a list of fields`;
    }
    if (fields.length > TYPED_DATA_LIMITS.maxFields) {
      return `${where}: must have at most ${TYPED_DATA_LIMITS.maxFields} fields`;
    }
    for (const [index, field] of fields.entries()) {
      if (typeof field?.name !== 'string' || !isTypedDataName(field.name)) {
        return `${where}.${index}.name: must be an identifier of at most ${TYPED_DATA_LIMITS.maxNameLength} characters`;
      }
      if (typeof field.type !== 'string' || parseTypedDataType(field.type) === undefined) {
        return `${where}.${index}.type: must be an EIP-712 type (a name, then up to ${TYPED_DATA_LIMITS.maxDimensions} array suffixes such as [] or [3]; at most ${TYPED_DATA_LIMITS.maxNameLength} characters)`;
      }
    }
  }
  if (!isTypedDataName(request.primaryType)) {
    return 'primaryType: must be the name of one of the types';
  }
  if (request.primaryType === EIP712_DOMAIN_TYPE || !Object.hasOwn(request.types, request.primaryType)) {
    return `primaryType: ${request.primaryType} is not among the types`;
  }
  return typeGraphProblem(request.types, request.primaryType) ?? freeFormJsonProblem(request.domain, 'domain') ?? freeFormJsonProblem(request.message, 'message');
}

/**
 * The struct types `primaryType` uses, as a graph: a cycle is refused (EIP-712 has no recursive types), and so are
 * more than {@link TYPED_DATA_LIMITS.maxTypePaths} paths through it, counted once per type (memoised), so the count
 * itself costs no more than the types' size.
 */
function typeGraphProblem(types: TypedDataRequest['types'], primaryType: string): string | undefined {
  const children = (name: string): Set<string> =>
    new Set(
      (types[name] ?? [])
        .map((field) => parseTypedDataType(field.type)?.base)
        .filter((base): base is string => base !== undefined && base !== EIP712_DOMAIN_TYPE && Object.hasOwn(types, base)),
    );
  const paths = new Map<string, number>();
  const open = new Set<string>();
  let problem: string | undefined;
  const count = (name: string): number => {
    const known = paths.get(name);
    if (known !== undefined || problem !== undefined) {
      return known ?? 0;
    }
    if (open.has(name)) {
      problem = `types.${name}: uses itself (EIP-712 types cannot be recursive)`;
      return 0;
    }
    open.add(name);
    let total = 1;
    for (const child of children(name)) {
      total = Math.min(total + count(child), TYPED_DATA_LIMITS.maxTypePaths + 1);
    }
    open.delete(name);
    paths.set(name, total);
    return total;
  };
  // Recursion as deep as the types chain, at most 64 (checked before).
  if (count(primaryType) > TYPED_DATA_LIMITS.maxTypePaths && problem === undefined) {
    problem = `types: the types ${primaryType} uses reach each other in more than ${TYPED_DATA_LIMITS.maxTypePaths} ways; use fewer nested types`;
  }
  return problem;
}
