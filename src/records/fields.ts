import { fail } from './problems.js';

/**
 * Typed access to loosely typed source JSON. Each getter names the field in its
 * error sentence, so an unreadable entry says exactly what was wrong.
 */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function reqObj(o: Obj, key: string, where = ''): Obj {
  const v = o[key];
  if (v === undefined || v === null) fail('record.missing-field', `field "${where}${key}" is missing`);
  if (!isObj(v)) fail('record.bad-field', `field "${where}${key}" must be an object, not ${describe(v)}`);
  return v;
}

export function reqArray(o: Obj, key: string, where = ''): unknown[] {
  const v = o[key];
  if (v === undefined || v === null) fail('record.missing-field', `field "${where}${key}" is missing`);
  if (!Array.isArray(v)) fail('record.bad-field', `field "${where}${key}" must be a list, not ${describe(v)}`);
  return v;
}

export function reqString(o: Obj, key: string, where = ''): string {
  const v = o[key];
  if (v === undefined || v === null || v === '') fail('record.missing-field', `field "${where}${key}" is missing`);
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') fail('record.bad-field', `field "${where}${key}" must be text, not ${describe(v)}`);
  return v;
}

export function optString(o: Obj, key: string, where = ''): string | null {
  const v = o[key];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') fail('record.bad-field', `field "${where}${key}" must be text, not ${describe(v)}`);
  return v;
}

/** A number, also accepted as numeric text (CSV cells, old exports). */
export function optNumber(o: Obj, key: string, where = ''): number | null {
  const v = o[key];
  if (v === undefined || v === null || v === '') return null;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail('record.bad-field', `field "${where}${key}" must be a number, not ${describe(v)}`);
  return n;
}

export function optBoolean(o: Obj, key: string, where = ''): boolean | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  fail('record.bad-field', `field "${where}${key}" must be true or false, not ${describe(v)}`);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}
