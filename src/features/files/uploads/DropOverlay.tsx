import { CloudUploadOutlined } from '@ant-design/icons';

/** Shown over the files page while files are dragged over it. */
export function DropOverlay() {
  return (
    <div
      data-testid="drop-overlay"
      style={{
        position: 'absolute',
        inset: 0,
        zIndex: 10,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 12,
        background: 'rgba(22, 119, 255, 0.06)',
        border: '2px dashed #0958d9',
        borderRadius: 8,
        color: '#0958d9',
        fontSize: 16,
        pointerEvents: 'none',
      }}
    >
      <CloudUploadOutlined style={{ fontSize: 40 }} />
      松开鼠标上传到当前文件夹
    </div>
  );
}
