/**
 * Imported first by server/main.ts, before any module can touch the libuv thread pool (its size is
 * read once, when the pool starts). Every chunk upload ends in an fsync, which holds a pool thread for
 * the ~10 ms the disk takes; with libuv's default of 4 threads, three chunks in flight plus their
 * fsyncs left file opens and writes queueing behind them (open measured ~6 ms a chunk). The pool's
 * threads mostly sleep in the kernel, so more of them cost little. An operator's own setting wins.
 */
export const DEFAULT_UV_THREADPOOL_SIZE = 16;

process.env.UV_THREADPOOL_SIZE ??= String(DEFAULT_UV_THREADPOOL_SIZE);
