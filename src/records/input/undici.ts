import { createRequire } from 'node:module';

type Undici = typeof import('undici');
let loaded: Undici | null = null;

/**
 * undici, loaded from node_modules when a run first speaks HTTP (an HTTP source, `fetch`):
 * by createRequire, so that no bundle holds it (a megabyte every start would compile) and
 * a run on files never loads it.
 */
export const undici = (): Undici => (loaded ??= createRequire(import.meta.url)('undici') as Undici);
