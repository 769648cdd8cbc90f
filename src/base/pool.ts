/**
 * Runs `run(0)` … `run(count - 1)`, at most `concurrency` at a time, and returns their results by index, whatever
 * order they finish in. `settled` hears of each as it finishes. When one throws, no further index starts; the
 * ones already running are awaited (none outlives the call), then the first error is thrown. Once `stop()`
 * says true no further index starts either, and the results are those of the indexes that started.
 */
export async function runPool<T>(
  count: number,
  concurrency: number,
  run: (index: number) => Promise<T>,
  settled?: (index: number, result: T) => void,
  stop?: () => boolean,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < count && stop?.() !== true) {
      const index = next++;
      try {
        results[index] = await run(index);
      } catch (error) {
        failure ??= { error };
        return;
      }
      settled?.(index, results[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failure !== undefined) throw failure.error;
  return results.slice(0, next);
}
