import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './test-support/temp-dir.js';
import { JUDGE_MODULES } from './judge-modules.js';
import { TASK_MODULES } from './worker-modules.js';
import { importModule, moduleRef } from './worker-pool.js';

describe('the modules worker threads run, by name', () => {
  it('each built-in task module exports its task, each judge module createJudge', async () => {
    for (const name of Object.keys(TASK_MODULES)) expect(typeof (await importModule<{ default: unknown }>(TASK_MODULES, name)).default).toBe('function');
    for (const name of Object.keys(JUDGE_MODULES)) expect(typeof (await importModule<{ createJudge: unknown }>(JUDGE_MODULES, name)).createJudge).toBe('function');
  });

  it('any other module travels as its URL and is imported as it is; a name is no URL', async () => {
    const file = join(tempDir('worker-modules-'), 'triple.mjs');
    writeFileSync(file, 'export default (n) => n * 3;\n');
    const ref = moduleRef(pathToFileURL(file));
    expect(ref).toBe(pathToFileURL(file).href);
    expect((await importModule<{ default: (n: number) => number }>(TASK_MODULES, ref)).default(5)).toBe(15);
    expect(moduleRef('batch')).toBe('batch');
    // Names are the registry's own keys, never inherited ones.
    await expect(importModule(TASK_MODULES, 'constructor')).rejects.toThrow();
  });
});
