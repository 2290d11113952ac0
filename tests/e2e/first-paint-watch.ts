/**
 * Page scripts (for page.addInitScript) that watch what the user would see in the frame a thing
 * appears, not after it settles: a MutationObserver runs before the next paint, and a frame callback
 * right before it. Read the findings with `page.evaluate(() => window.__firstPaint)`.
 */

export interface NoticeFrame {
  text: string;
  path: string;
  notice: { left: number; top: number; right: number; bottom: number };
  control: { left: number; top: number; right: number; bottom: number } | null;
  /** The element a tap at the control's centre reaches lies inside the control. */
  controlReachable: boolean | null;
}

export interface FirstPaintFindings {
  /** Every notice in every frame it showed (and at each change of the page while it did). */
  notices: NoticeFrame[];
  /** The preview picture's width when it first became visible, and in the frame after. */
  previewWidths: number[];
}

/**
 * Installs the watch. `controlSelector`: the control notices must keep clear of; `imageSelector`: the
 * picture whose first visible width is recorded (again for each new element).
 */
export function watchFirstPaint({ controlSelector, imageSelector }: { controlSelector: string; imageSelector: string }): void {
  const findings: FirstPaintFindings = { notices: [], previewWidths: [] };
  (window as unknown as { __firstPaint: FirstPaintFindings }).__firstPaint = findings;
  const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });

  const measureNotices = (): boolean => {
    const notices = document.querySelectorAll('.ant-notification-notice');
    if (notices.length === 0) return false;
    const control = document.querySelector(controlSelector);
    const c = control?.getBoundingClientRect();
    const hit = c && c.width > 0 ? document.elementFromPoint((c.left + c.right) / 2, (c.top + c.bottom) / 2) : null;
    for (const notice of notices) {
      const r = notice.getBoundingClientRect();
      if (r.width === 0) continue;
      findings.notices.push({
        text: notice.textContent ?? '',
        path: location.pathname,
        notice: box(r),
        control: c && c.width > 0 ? box(c) : null,
        controlReachable: c && c.width > 0 ? !!hit && control!.contains(hit) : null,
      });
    }
    return true;
  };
  let watchingFrames = false;
  const everyFrame = (): void => {
    if (measureNotices()) requestAnimationFrame(everyFrame);
    else watchingFrames = false;
  };

  const seenImages = new WeakSet<Element>();
  const measureImage = (): void => {
    const image = document.querySelector(imageSelector);
    if (!image || seenImages.has(image) || getComputedStyle(image).visibility !== 'visible') return;
    seenImages.add(image);
    findings.previewWidths.push(image.getBoundingClientRect().width);
    requestAnimationFrame(() => findings.previewWidths.push(image.getBoundingClientRect().width));
  };

  const start = (): void => {
    new MutationObserver(() => {
      measureImage();
      if (measureNotices() && !watchingFrames) {
        watchingFrames = true;
        requestAnimationFrame(everyFrame);
      }
    }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class'] });
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}
