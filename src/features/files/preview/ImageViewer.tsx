import { CompressOutlined, ExpandOutlined, RotateRightOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { Alert, Button, Spin, Tooltip } from 'antd';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { previewUrl, thumbnailUrl } from '../../../../common/api/paths';
import type { FileEntry } from '../../../../common/api/types';
import { useElementSize } from '../../../lib/use-element-size';
import { previewFailureText } from '../../../lib/preview-failure';

const MIN_SCALE = 0.05;
const MAX_SCALE = 16;
const STEP = 1.25;

interface View {
  /** 'fit': the whole picture in the box (never enlarged); a number: that zoom. */
  scale: number | 'fit';
  x: number;
  y: number;
  rotate: number;
}

const FIT: View = { scale: 'fit', x: 0, y: 0, rotate: 0 };

/**
 * A picture at full resolution (the original, with the server's thumbnail shown until it arrives),
 * fitted to the box and then zoomed — buttons, the wheel, `+` / `-` / `0` keys — dragged about and
 * turned. The percentage says how large it is shown. A picture the server would not render shows its
 * coded reason (asked once more to read it: an <img> cannot), or `fallback`.
 */
export function ImageViewer({ file, fallback }: { file: FileEntry; fallback: string }) {
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, { width: 800, height: 600 });
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [view, setView] = useState<View>(FIT);
  const drag = useRef<{ x: number; y: number; vx: number; vy: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const failed = (): void => {
    fetch(previewUrl(file.id), { credentials: 'include' })
      .then((res) => {
        if (!res.ok) return previewFailureText(res, fallback);
        void res.body?.cancel(); // served, yet not a picture the browser decodes
        return fallback;
      })
      .catch(() => fallback)
      .then(setFailure, () => setFailure(fallback));
  };

  const turned = view.rotate % 180 !== 0;
  // The fitted size itself is CSS's (the <img>'s max-width/max-height below), so the picture is fitted
  // in the very frame it first shows, whenever the box is measured. The measured ratio only says what
  // percentage that is, and what a zoom from it multiplies.
  const fitScale = natural ? Math.min(1, size.width / (turned ? natural.h : natural.w), size.height / (turned ? natural.w : natural.h)) : 1;
  const scale = view.scale === 'fit' ? fitScale : view.scale;
  /** The zoom over the CSS-fitted size (1 when fitted). */
  const overFit = view.scale === 'fit' ? 1 : view.scale / fitScale;
  const zoom = (factor: number): void => setView((v) => ({ ...v, scale: Math.min(MAX_SCALE, Math.max(MIN_SCALE, (v.scale === 'fit' ? fitScale : v.scale) * factor)) }));
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;

  // The wheel zooms (a passive React listener could not keep the page from scrolling).
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      zoomRef.current(e.deltaY < 0 ? STEP : 1 / STEP);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    const d = drag.current;
    if (d) setView((v) => ({ ...v, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y }));
  };

  const percent = Math.round(scale * 100);
  if (failure) return <Alert type="error" showIcon title={failure} data-testid="preview-failed" />;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', width: '100%', gap: 8 }}>
      <div
        ref={box}
        className="image-viewer"
        tabIndex={0}
        aria-label={`${file.name}，${percent}%`}
        data-testid="image-viewer"
        data-scale={percent}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onDoubleClick={() => setView((v) => (v.scale === 'fit' ? { ...v, scale: 1 } : FIT))}
        onKeyDown={(e) => {
          if (e.key === '+' || e.key === '=') zoom(STEP);
          else if (e.key === '-') zoom(1 / STEP);
          else if (e.key === '0') setView(FIT);
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
        style={{ position: 'relative', containerType: 'size', height: 'min(70vh, 720px)', overflow: 'hidden', background: '#262626', borderRadius: 6, cursor: drag.current ? 'grabbing' : 'grab', touchAction: 'none' }}
      >
        {!natural && (
          <>
            <img src={thumbnailUrl(file.id)} alt="" aria-hidden style={{ position: 'absolute', inset: 0, margin: 'auto', maxWidth: '100%', maxHeight: '100%', filter: 'blur(2px)', opacity: 0.8 }} />
            <Spin style={{ position: 'absolute', inset: 0, margin: 'auto', height: 'fit-content' }} />
          </>
        )}
        <img
          key={file.id}
          src={previewUrl(file.id)}
          alt={file.name}
          draggable={false}
          data-testid="preview-image"
          onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          onError={failed}
          style={{
            position: 'absolute',
            left: '50%',
            top: '50%',
            // Fitted by CSS: the box's width and height (the other way round when turned a quarter),
            // never enlarged (a max- size does not stretch an image past its own).
            maxWidth: turned ? '100cqh' : '100cqw',
            maxHeight: turned ? '100cqw' : '100cqh',
            visibility: natural ? 'visible' : 'hidden',
            transform: `translate(calc(-50% + ${view.x}px), calc(-50% + ${view.y}px)) rotate(${view.rotate}deg) scale(${overFit})`,
            transition: drag.current ? 'none' : 'transform .12s',
            userSelect: 'none',
          }}
        />
      </div>
      <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 4 }} role="toolbar" aria-label="图片缩放">
        <Tooltip title="缩小（-）">
          <Button icon={<ZoomOutOutlined />} aria-label="缩小" onClick={() => zoom(1 / STEP)} data-testid="image-zoom-out" />
        </Tooltip>
        <span style={{ minWidth: 56, textAlign: 'center' }} aria-live="polite" data-testid="image-zoom-percent">
          {percent}%
        </span>
        <Tooltip title="放大（+）">
          <Button icon={<ZoomInOutlined />} aria-label="放大" onClick={() => zoom(STEP)} data-testid="image-zoom-in" />
        </Tooltip>
        <Tooltip title="原始大小">
          <Button icon={<ExpandOutlined />} aria-label="原始大小" onClick={() => setView((v) => ({ ...v, scale: 1, x: 0, y: 0 }))} data-testid="image-actual-size" />
        </Tooltip>
        <Tooltip title="适应窗口（0）">
          <Button icon={<CompressOutlined />} aria-label="适应窗口" onClick={() => setView((v) => ({ ...FIT, rotate: v.rotate }))} data-testid="image-fit" />
        </Tooltip>
        <Tooltip title="旋转">
          <Button icon={<RotateRightOutlined />} aria-label="旋转" onClick={() => setView((v) => ({ ...v, rotate: (v.rotate + 90) % 360 }))} />
        </Tooltip>
        {natural && (
          <span style={{ color: 'rgba(0,0,0,0.6)', marginInlineStart: 8, fontSize: 12 }}>
            {natural.w} × {natural.h}
          </span>
        )}
      </div>
    </div>
  );
}
