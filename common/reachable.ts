/**
 * Every node reachable from `root` through `next`, `root` included. Each node is visited once, so
 * cycles end the walk; iterative, so deep graphs (module graphs, department trees) do not overflow
 * the stack.
 */
export function reachableFrom<T>(root: T, next: (node: T) => Iterable<T>): Set<T> {
  const seen = new Set<T>();
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const following of next(node)) stack.push(following);
  }
  return seen;
}
