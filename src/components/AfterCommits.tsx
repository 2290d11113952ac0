import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Mounts `children` in a render of its own, after the commit that mounted this component: a part of
 * the shell the first screen can do without (the side menu, the header's buttons, the transfer
 * panel, background work) then commits, lays out and runs its effects in a task of its own. One
 * commit of the whole shell, with the effects React had to run with it, was the longest task of a
 * cold 个人文件 (Lighthouse: total blocking time).
 *
 * `stage` 2 waits one commit more (the parts of stage 1 commit first), and so on. Each stage is a
 * transition started by an effect of the one before: a deferred value (useDeferredValue) would not
 * do, as one mounted inside a deferred render takes its final value at once, and every stage came
 * in the same commit.
 *
 * A component of its own, not state of the parent: re-rendering the parent in the transition (the
 * whole header, once) let data answered meanwhile change under that render, and React threw it away
 * and did it again in one blocking piece (a "teared render", 76–128 ms in every one of six cold
 * loads). Here only `children` render in it.
 */
export function AfterCommits({ stage = 1, children }: { stage?: number; children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  if (!ready) return null;
  return stage > 1 ? <AfterCommits stage={stage - 1}>{children}</AfterCommits> : children;
}
