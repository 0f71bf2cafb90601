/**
 * A value built on its first use, standing in for it meanwhile. The zod schemas are built
 * this way: built at load, the schemas of summaries, results and dialects took a tenth of a
 * one-game replay's start (docs/performance.md#start-up), though a replay of the shipped
 * dialects parses none of them. Every property and `instanceof` is the built value's; a
 * method runs with the stand-in as `this`, whose properties are the value's: right for plain
 * objects and zod's schemas, not for a built-in whose methods need the object itself (a Date).
 */
export function lazily<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: the stand-in holds none of the value's own properties itself.
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
