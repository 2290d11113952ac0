import { Badge, Button } from 'antd';
import { useState } from 'react';
import { lazyWhenOpen } from '../../../components/lazy-when-open';
import { processIntercepted, useIntercepted } from '../../../lib/data/sharing';
import { useFeedback } from '../../../lib/feedback/feedback';

// The list (antd's List, which brings Pagination and Select) loads when the drawer first opens: the
// file pages share their chunk, and 个人文件 should not load it.
const InterceptedDrawer = lazyWhenOpen(() => import('./InterceptedDrawer').then((m) => m.InterceptedDrawer), (p) => p.open);

/**
 * 其他 (the exchange area): the files checkSwap intercepted and that are not dealt with yet, each with
 * its reason. 忽略 takes it off this list (the file stays flagged); 删除 moves it to the recycle bin.
 */
export function InterceptedPanel({ onChanged }: { onChanged: () => void }) {
  const { message } = useFeedback();
  const [open, setOpen] = useState(false);
  const list = useIntercepted();
  const items = list.data ?? [];
  const deal = async (ids: string[], decision: 'dismiss' | 'delete') => {
    await processIntercepted(ids, decision);
    message.success(decision === 'delete' ? '已删除到回收站' : '已忽略');
    void list.refetch();
    onChanged();
  };
  return (
    <>
      <Badge count={items.length} size="small">
        <Button onClick={() => setOpen(true)} data-testid="intercepted-open">
          拦截记录
        </Button>
      </Badge>
      <InterceptedDrawer open={open} items={items} onClose={() => setOpen(false)} onDeal={deal} />
    </>
  );
}
