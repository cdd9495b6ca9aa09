/**
 * Schemas built on first use. Building a zod schema is work (each field's object, its checks, its
 * traits): the core's modules hold some hundred of them, for the service's shapes in two readings,
 * the chat, the deployments, the inputs sent. Built when their module loaded, they cost the task
 * pane's first list about 20 ms of main-thread CPU (docs/benchmarks.md, "Cold pane: main-thread
 * CPU") for schemas the first list never reads. Each is now built when something first reads it.
 */

/** `make`'s value, made on the first call and kept. */
export function built<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/**
 * A stand-in for the object `make` builds, built on first use: every property read, `in`, key
 * listing and `instanceof` is answered by the built object, so an exported schema keeps its name,
 * its type and its behaviour (`parse`, `safeParse`, `shape`, a member of another schema) while
 * nothing is built until it is used.
 */
export function lazily<T extends object>(make: () => T): T {
  const real = built(make);
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // A proxy may not report a property as non-configurable that its (empty) target lacks.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
