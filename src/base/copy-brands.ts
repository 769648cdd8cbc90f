/**
 * `instanceof` that holds across tooltrace's copies in one process. A Vitest worker may load the ES build and
 * the CommonJS one (the setup file and `tooltrace` share the CommonJS build; `tooltrace/msw`, `/ai-sdk` and a YAML
 * eval file's runner are ES modules), and Jest may load either: each copy has its own classes, so an error one
 * copy threw would fail the other's `instanceof`. A branded class's instances carry the brands of their class
 * and the classes it extends, under a `Symbol.for` key every copy shares.
 */
const BRANDS = Symbol.for("tooltrace.classBrands");

/** A class whose `instanceof` reads brands: its own, in a static `brand`. */
export interface BrandedClass {
  readonly brand?: string;
}

/** Stamps `instance` with the brands of `target` (`new.target` in its constructor) and of every class it extends. */
export function stampBrands(instance: object, target: BrandedClass): void {
  const brands: string[] = [];
  for (let current: unknown = target; typeof current === "function"; current = Object.getPrototypeOf(current)) {
    const own = Object.getOwnPropertyDescriptor(current, "brand")?.value;
    if (typeof own === "string") brands.push(own);
  }
  Object.defineProperty(instance, BRANDS, { value: brands });
}

/** `value instanceof branded`: through the prototype chain, or by a brand another copy stamped. */
export function hasBrand(branded: BrandedClass & (abstract new (...args: never[]) => unknown), value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(branded, value)) return true;
  if (value === null || typeof value !== "object") return false;
  const brands = (value as { [BRANDS]?: unknown })[BRANDS];
  return typeof branded.brand === "string" && Array.isArray(brands) && brands.includes(branded.brand);
}
