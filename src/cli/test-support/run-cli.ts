import { vi } from 'vitest';
import { main } from '../main.js';

/** Runs the command line in process, capturing stdout and stderr; resolves to the exit code and both texts. */
export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    out += String(chunk);
    const cb = rest.find((x) => typeof x === 'function') as (() => void) | undefined;
    cb?.();
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
    process.exitCode = 0;
  }
}
