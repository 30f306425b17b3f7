import { AUDIT_CHAIN_GENESIS, AuditExportLine, auditChainHash, canonicalAuditEntry, verifyAuditExport } from './audit-chain';

/** A chain of `count` rows as an export writes it. */
function chainOf(chain: string, count: number, firstSeq = 1, prev: Buffer = AUDIT_CHAIN_GENESIS): AuditExportLine[] {
  const lines: AuditExportLine[] = [];
  let prevHash: Buffer = prev;
  for (let seq = firstSeq; seq < firstSeq + count; seq += 1) {
    const entry = { id: `${chain}-${seq}`, table: 'audit_events', gameId: 'g', at: `2026-11-26T10:00:0${seq % 10}.000Z`, details: { n: seq, note: 'é ✓' } };
    const hash = auditChainHash(prevHash, canonicalAuditEntry(entry));
    lines.push({ chain, seq, prevHash: prevHash.toString('hex'), hash: hash.toString('hex'), entry });
    prevHash = hash;
  }
  return lines;
}

const text = (lines: AuditExportLine[]) => lines.map((line) => JSON.stringify(line));

describe('audit hash chain', () => {
  it('hashes the RFC 8785 form: keys sorted by UTF-16 code units, numbers as ECMAScript prints them, no spaces', () => {
    expect(canonicalAuditEntry({ id: 'x', b: [1e21, 0.1, -0, 10], a: { 'é': 1, z: null, A: true } })).toBe('{"a":{"A":true,"z":null,"é":1},"b":[1e+21,0.1,0,10],"id":"x"}');
  });

  it('chains SHA-256 over the previous hash and the canonical text', () => {
    const [first, second] = chainOf('identity', 2);
    expect(first.prevHash).toBe('0'.repeat(64));
    expect(second.prevHash).toBe(first.hash);
  });

  it('accepts an export whose every row holds, two chains interleaved', async () => {
    const identity = chainOf('identity', 3);
    const wallet = chainOf('wallet', 4);
    const lines = text([identity[0], wallet[0], wallet[1], identity[1], wallet[2], identity[2], wallet[3]]);
    expect(await verifyAuditExport(lines)).toEqual({ ok: true, rows: { identity: 3, wallet: 4 } });
  });

  it('accepts an export that starts mid-chain (since), taking its first prevHash as given', async () => {
    expect((await verifyAuditExport(text(chainOf('wallet', 5).slice(2)))).ok).toBe(true);
  });

  it('names a changed row: its content no longer matches its hash', async () => {
    const lines = chainOf('wallet', 5);
    lines[2] = { ...lines[2], entry: { ...lines[2].entry, details: { n: 999 } } };
    expect((await verifyAuditExport(text(lines))).problem).toMatchObject({ line: 3, kind: 'changed', chain: 'wallet', seq: 3, id: 'wallet-3' });
  });

  it('names the row after a removed one', async () => {
    const lines = chainOf('wallet', 5);
    lines.splice(1, 1);
    expect((await verifyAuditExport(text(lines))).problem).toMatchObject({ line: 2, kind: 'removed', seq: 3 });
  });

  it('names rows out of order, whether by seq or by link', async () => {
    const swapped = chainOf('identity', 4);
    [swapped[1], swapped[2]] = [swapped[2], swapped[1]];
    expect((await verifyAuditExport(text(swapped))).problem).toMatchObject({ line: 2, kind: 'removed', seq: 3 });
    // The seq values swapped back in the file: the links still betray the order.
    const relabelled = chainOf('identity', 4);
    const [b, c] = [relabelled[1], relabelled[2]];
    relabelled[1] = { ...c, seq: 2 };
    relabelled[2] = { ...b, seq: 3 };
    expect((await verifyAuditExport(text(relabelled))).problem).toMatchObject({ line: 2, kind: 'reordered', seq: 2 });
    const backwards = chainOf('identity', 3);
    expect((await verifyAuditExport(text([backwards[0], backwards[2], backwards[1]]))).problem).toMatchObject({ kind: 'removed' });
    expect((await verifyAuditExport(text([backwards[0], backwards[1], backwards[0]]))).problem).toMatchObject({ line: 3, kind: 'reordered' });
  });

  it('refuses a first row of a chain that claims seq 1 but does not start from the genesis hash', async () => {
    const lines = chainOf('wallet', 2, 1, Buffer.alloc(32, 7));
    expect((await verifyAuditExport(text(lines))).problem).toMatchObject({ line: 1, kind: 'changed' });
  });

  it('stops at a line that is not an export line, naming it', async () => {
    for (const bad of ['{', '[]', '{"chain":"wallet","seq":0}', JSON.stringify({ ...chainOf('wallet', 1)[0], hash: 'xyz' }), 'x'.repeat(1_000_001)]) {
      expect((await verifyAuditExport(['', bad])).problem).toMatchObject({ line: 2, kind: 'unreadable' });
    }
  });
});
