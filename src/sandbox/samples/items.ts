import type { Served } from '../../contract/served';

const item = (name: string, amount: number, codes: { hsn_code?: string; sac_code?: string }, tax_rate: number) => ({
  active: true,
  name,
  description: `${name} (sandbox)`,
  amount,
  unit_amount: amount,
  currency: 'INR',
  type: 'invoice',
  unit: null,
  tax_inclusive: false,
  hsn_code: codes.hsn_code ?? null,
  sac_code: codes.sac_code ?? null,
  tax_rate,
  tax_id: null,
  tax_group_id: null,
});

/** `sandbox seed`'s catalogue: goods with HSN codes, a service with a SAC code, one item no longer sold. */
export const items = (now: number): Array<Omit<Served<'item'>, 'id' | 'entity'>> => [
  { ...item('Cotton T-shirt', 49900, { hsn_code: '6109' }, 500), created_at: now - 300, updated_at: now - 300 },
  { ...item('Ceramic mug', 29900, { hsn_code: '6912' }, 1200), created_at: now - 200, updated_at: now - 200 },
  { ...item('Setup service', 150000, { sac_code: '998313' }, 1800), created_at: now - 100, updated_at: now - 50 },
  { ...item('Gift wrap', 5000, {}, 0), active: false, created_at: now - 50, updated_at: null },
];
