/**
 * personal.html paints 个人文件's frame before any script (src/app/personal-frame.tsx), over the
 * loading screen React starts with. The frame stays while a loading screen is mounted anywhere and
 * goes in the commit that leaves none — the shell's first, or whatever else shows instead (the login
 * page, an error) — before that commit is painted, so the page never shows the loading screen between
 * the two, nor both.
 */
let loadingScreens = 0;

/** A loading screen (PageLoading) mounted; the returned function says it is gone. For a layout effect. */
export function holdBootFrame(): () => void {
  loadingScreens++;
  return () => {
    loadingScreens--;
    // After the rest of this commit (a loading screen that mounts in it counts), before it is painted.
    queueMicrotask(() => {
      if (loadingScreens === 0) document.getElementById('boot-frame')?.remove();
    });
  };
}
