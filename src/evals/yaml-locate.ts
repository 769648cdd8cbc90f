/** What the `yaml` library's documents are made of, as far as finding a key's place goes. */
export interface YamlNodes {
  isMap(node: unknown): node is { items: { key: unknown; value: unknown }[]; range?: readonly number[] | null };
  isSeq(node: unknown): node is { items: unknown[]; range?: readonly number[] | null };
  isScalar(node: unknown): node is { value: unknown; range?: readonly number[] | null };
}

/**
 * Where `path` (the keys and indexes down from `root`) is written: the offset of its last key (or item), or,
 * where the path goes past what the file holds (a missing field), of the deepest node it reaches.
 */
export function offsetOf(nodes: YamlNodes, root: unknown, path: readonly string[]): number | undefined {
  let node = root;
  let offset = startOf(root);
  for (const segment of path) {
    if (nodes.isMap(node)) {
      const pair = node.items.find((item) => (nodes.isScalar(item.key) ? String(item.key.value) : String(item.key)) === segment);
      if (pair === undefined) return offset;
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (nodes.isSeq(node)) {
      const item = node.items[Number(segment)];
      if (item === undefined) return offset;
      offset = startOf(item) ?? offset;
      node = item;
    } else return offset;
  }
  return offset;
}

function startOf(node: unknown): number | undefined {
  const range = (node as { range?: readonly number[] | null } | null)?.range;
  return range?.[0];
}
