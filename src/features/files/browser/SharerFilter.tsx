import { Segmented, Skeleton } from 'antd';
import { useSharers } from '../../../lib/data/sharing';

/**
 * 共享文件, grouped by who shared: everyone's entries, or one sharer's (with how many each shares).
 * Shown at the top of the shared tree; the list below follows the choice.
 */
export function SharerFilter({ value, onChange }: { value: string | null; onChange: (sharerId: string | null) => void }) {
  const sharers = useSharers();
  if (sharers.isPending) return <Skeleton.Button active size="small" style={{ width: 240 }} />;
  const list = sharers.data ?? [];
  if (list.length === 0) return null;
  const total = list.reduce((n, s) => n + s.count, 0);
  return (
    <div style={{ overflowX: 'auto' }} data-testid="sharer-filter">
      <Segmented
        value={value ?? ''}
        onChange={(v) => onChange(v === '' ? null : String(v))}
        options={[
          { value: '', label: `全部（${total}）` },
          ...list.map((s) => ({ value: s.user.id, label: `${s.user.nickName || '未知用户'}（${s.count}）` })),
        ]}
      />
    </div>
  );
}
