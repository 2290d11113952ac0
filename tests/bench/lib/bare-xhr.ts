/**
 * The baselines the browser-upload suite times beside the app's 上传文件 in every round: the same File
 * sent by one bare XMLHttpRequest from the same page into the server's raw sink (PUT
 * /api/test/raw-sink?keep=1, server/routes/test-routes.ts), and the machine's busy CPU around a phase.
 */
import { readFileSync } from 'node:fs';
import { clientHeaders } from '../../../common/api/client-env';
import { RAW_SINK_KEEP } from '../suites/upload';
import type { BrowserDrive } from './browser-drive';

export interface BareXhrOptions {
  /** The floor of any page that shows an upload's progress (timedBareXhr). */
  withProgress?: boolean;
  /**
   * Into the sink that also computes the protocol's chunk digest of the body on hash threads
   * (`&digest=1`), as the upload path must for what it stores: the ceiling of a server that digests.
   */
  digest?: boolean;
}

/**
 * The browser's ceiling: `file` picked into a fresh hidden input of the page and PUT by one bare
 * XMLHttpRequest (cookie and client headers, as the app's requests) into the raw sink; ms from the
 * send to the answer.
 *
 * `digest`: into the digesting sink instead. `withProgress`: the floor of any page that shows an
 * upload's progress — the same request with an `upload.onprogress` listener (Chromium's network
 * service then reports progress ~10 times a second, see workers/engine/transport.ts) drawing a minimal
 * bar and a percentage (a plain div's width and a text node, changed at most once an animation frame,
 * nothing animated): what the app's panel is measured against beside the bare request.
 */
export async function timedBareXhr(drive: BrowserDrive, file: string, options: BareXhrOptions = {}): Promise<number> {
  const { withProgress = false, digest = false } = options;
  const input = await drive.page.evaluateHandle(() => {
    const el = document.createElement('input');
    el.type = 'file';
    el.style.display = 'none';
    document.body.append(el);
    return el;
  });
  try {
    await input.asElement()!.setInputFiles(file);
    return await drive.page.evaluate(
      async ({ el, url, headers, withProgress }) =>
        new Promise<number>((resolve, reject) => {
          const picked = (el as HTMLInputElement).files![0]!;
          const xhr = new XMLHttpRequest();
          xhr.open('PUT', url);
          for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
          let box: HTMLElement | null = null;
          if (withProgress) {
            box = document.createElement('div');
            box.style.cssText = 'position:fixed;right:16px;bottom:16px;width:240px;padding:8px;background:#fff;border:1px solid #ddd;contain:strict;height:40px;font:12px sans-serif';
            const track = box.appendChild(document.createElement('div'));
            track.style.cssText = 'height:6px;background:#eee';
            const bar = track.appendChild(document.createElement('div'));
            bar.style.cssText = 'height:6px;width:0;background:#1677ff';
            const label = box.appendChild(document.createTextNode('0%'));
            document.body.append(box);
            // No named function in here: tsx would wrap it in a helper the page does not have (see waitForUploadDone).
            const drawn = { loaded: 0, frame: 0 };
            xhr.upload.onprogress = (event) => {
              drawn.loaded = event.loaded;
              if (drawn.frame) return;
              drawn.frame = requestAnimationFrame(() => {
                drawn.frame = 0;
                const pct = Math.floor((drawn.loaded / picked.size) * 100);
                bar.style.width = `${pct}%`;
                label.data = `${pct}%`;
              });
            };
          }
          const started = performance.now();
          xhr.onload = () => {
            box?.remove();
            if (xhr.status === 200) resolve(performance.now() - started);
            else reject(new Error(`raw sink answered ${xhr.status}`));
          };
          xhr.onerror = () => reject(new Error('bare XHR failed'));
          xhr.send(picked);
        }),
      { el: input, url: digest ? `${RAW_SINK_KEEP}&digest=1` : RAW_SINK_KEEP, headers: { ...clientHeaders('web', 'internal'), 'Content-Type': 'application/octet-stream' }, withProgress },
    );
  } finally {
    await input.evaluate((el) => (el as HTMLElement).remove());
  }
}

/** CPU-seconds the whole machine was busy (every core, every process) since boot, from /proc/stat. */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is inside user)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) / 100;
}
