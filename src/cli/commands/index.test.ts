import { describe, expect, it } from 'vitest';
import { allCommands, COMMAND_MODULES } from './index.js';

describe('the command registry', () => {
  it('names each command as the command calls itself, and lists every command once, in the order of the help text', async () => {
    for (const [name, load] of Object.entries(COMMAND_MODULES)) expect(String((await load()).command).split(' ')[0]).toBe(name);
    const names = (await allCommands()).map((c) => String(c.command).split(' ')[0]);
    expect(names).toEqual(Object.keys(COMMAND_MODULES));
    expect(names[0]).toBe('replay');
  });
});
