import { describe, expect, it } from 'vitest';
import type { ActionLogTable } from '../../../server/db/schema';
import { canonicalForm, chainHash, GENESIS_HASH, sanitizeText } from '../../../server/services/action-log/chain';
import { exportCells, formatExportTime } from '../../../server/services/action-log-export';

const row: ActionLogTable = {
  tenant_id: 't1',
  seq: 7,
  at: 1_700_000_000_000,
  actor_id: 'u1',
  actor_account: 'alice',
  actor_name: '爱丽丝',
  actor_role: 'member',
  dept_id: null,
  action: 'file.rename',
  targets: JSON.stringify([{ type: 'file', id: 'f1', name: '=HYPERLINK("x")' }]),
  names_key: '=hyperlink("x")',
  detail: JSON.stringify({ from: 'a', to: 'b' }),
  outcome: 'ok',
  error_code: null,
  address: '10.0.0.1',
  client_type: 3,
  network_env: 'internal',
  platform: 'web',
  user_agent: '@evil',
  prev_hash: GENESIS_HASH,
  hash: '',
};

describe('the chain’s canonical form', () => {
  it('is one JSON array in a fixed order; numbers that come back as strings (PostgreSQL bigints) hash the same', () => {
    expect(canonicalForm(row).startsWith('["v1","t1",7,1700000000000,"u1","alice"')).toBe(true);
    const asStrings = { ...row, seq: '7', at: '1700000000000', client_type: '3' } as unknown as ActionLogTable;
    const key = Buffer.alloc(32, 1);
    expect(chainHash(key, asStrings)).toBe(chainHash(key, row));
    // Every field counts: one character anywhere changes the hash.
    for (const field of ['actor_account', 'targets', 'address', 'user_agent', 'prev_hash', 'detail'] as const) {
      expect(chainHash(key, { ...row, [field]: `${row[field]}x` }), field).not.toBe(chainHash(key, row));
    }
    expect(chainHash(Buffer.alloc(32, 2), row)).not.toBe(chainHash(key, row));
  });

  it('stores only what reads back byte for byte: no lone surrogates, no NUL, bounded, never half a pair', () => {
    expect(sanitizeText('a\uD800b', 10)).toBe('a\uFFFDb');
    expect(sanitizeText('a\u0000b', 10)).toBe('ab');
    expect(sanitizeText('😀😀', 3)).toBe('😀');
    expect(sanitizeText('abcdef', 4)).toBe('abcd');
  });
});

describe('export cells', () => {
  it('neutralise formula-like text with a leading quote and keep the rest as it is', () => {
    const cells = exportCells(row, -480, () => '');
    expect(cells[0]).toBe('2023-11-15 06:13:20');
    expect(cells[7]).toBe(`'=HYPERLINK("x")`);
    expect(cells[16]).toBe("'@evil");
    expect(cells[1]).toBe('alice');
    expect(cells[13]).toBe('内网版（3）');
    for (const bad of ['+1', '-1', '\tx', '\rx']) {
      expect(exportCells({ ...row, actor_account: bad }, 0, () => '')[1]).toBe(`'${bad}`);
    }
  });

  it('format times in the viewer’s zone', () => {
    expect(formatExportTime(0, 0)).toBe('1970-01-01 00:00:00');
    expect(formatExportTime(0, -480)).toBe('1970-01-01 08:00:00');
  });
});
