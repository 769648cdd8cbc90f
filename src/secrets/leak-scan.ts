import { pointerToken } from "../base/pointer.js";
import { KEY_FORMATS } from "./key-formats.js";

/** Where a well-known key format remains in `document` (each object as `asRead` shows it), and what it looks like; `undefined` when none does. */
export function findLeak(
  document: unknown,
  asRead: (value: object) => object = (value) => value,
): { readonly pointer: string; readonly kind: string } | undefined {
  const stack: [unknown, string][] = [[document, ""]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() as [unknown, string];
    if (typeof value === "string") {
      const kind = formatOf(value);
      if (kind !== undefined) return { pointer, kind };
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push([item, `${pointer}/${index}`]);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(asRead(value))) {
        const kind = formatOf(key);
        if (kind !== undefined) return { pointer: `${pointer}/${pointerToken(key)}`, kind };
        stack.push([item, `${pointer}/${pointerToken(key)}`]);
      }
    }
  }
  return undefined;
}

function formatOf(text: string): string | undefined {
  for (const [kind, pattern] of KEY_FORMATS) if (pattern.test(text)) return kind;
  return undefined;
}
