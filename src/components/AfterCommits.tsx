import { useDeferredValue, type ReactNode } from 'react';

/**
 * Mounts `children` in a render of its own, after the commit that mounted this component: a part of
 * the shell the first screen can do without (the side menu, the header's buttons, the transfer
 * panel, background machinery) then commits, lays out and runs its effects in a task of its own.
 * One commit of the whole shell, with the effects React had to run with it, was the longest task of
 * a cold 个人文件 (Lighthouse: total blocking time).
 *
 * `stage` 2 waits one commit more (the parts of stage 1 commit first), and so on.
 *
 * A component of its own, not a deferred value of the parent: that one rendered the whole parent
 * again in the deferred render, and data answered meanwhile changed under it. React then threw the
 * render away and did it again in one blocking piece (a "teared render", 76–128 ms in every one of
 * six cold loads). Here only `children` render in it.
 */
export function AfterCommits({ stage = 1, children }: { stage?: number; children: ReactNode }) {
  const ready = useDeferredValue(true, false);
  if (!ready) return null;
  return stage > 1 ? <AfterCommits stage={stage - 1}>{children}</AfterCommits> : children;
}
