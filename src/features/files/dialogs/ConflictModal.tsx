import { Button, Checkbox, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import {
  conflictsDone,
  currentConflict,
  decideConflict,
  DECISION_LABELS,
  decisionsFor,
  decisionsOf,
  startConflicts,
  type ConflictDecision,
  type ConflictItem,
} from '../actions/conflict-model';

/**
 * Asks, item by item, what to do with each name clash of a copy, move or restore (see
 * conflict-model.ts). Resolves with a decision per asked id, or null when the user cancels (then
 * nothing is sent again and nothing changes).
 */
export function ConflictModal({ items, onDone }: { items: ConflictItem[] | null; onDone: (decisions: Record<string, ConflictDecision> | null) => void }) {
  const [session, setSession] = useState(() => startConflicts(items ?? []));
  const [applyToRest, setApplyToRest] = useState(false);

  useEffect(() => {
    setSession(startConflicts(items ?? []));
    setApplyToRest(false);
  }, [items]);

  const item = currentConflict(session);
  const remaining = session.pending.length - 1;

  function choose(decision: ConflictDecision) {
    const next = decideConflict(session, decision, applyToRest);
    if (conflictsDone(next)) onDone(decisionsOf(next));
    else setSession(next);
  }

  return (
    <Modal open={items !== null && item !== null} title="目标位置存在同名项" footer={null} onCancel={() => onDone(null)} destroyOnHidden>
      {item && (
        <div data-testid="conflict-dialog" data-item-id={item.id}>
          <Typography.Paragraph>
            目标位置已存在名为「<Typography.Text strong>{item.name}</Typography.Text>」的{item.existingIsDir ? '文件夹' : '文件'}，请选择处理方式：
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">重命名后将保存为「{item.suggestedName}」。</Typography.Paragraph>
          {remaining > 0 && (
            <Checkbox checked={applyToRest} onChange={(e) => setApplyToRest(e.target.checked)} data-testid="conflict-apply-rest" style={{ marginBottom: 12 }}>
              对其余 {remaining} 个冲突项执行相同操作
            </Checkbox>
          )}
          <Space wrap style={{ display: 'flex', justifyContent: 'flex-end' }}>
            {decisionsFor(item).map((d) => (
              <Button key={d} type={d === 'rename' ? 'primary' : 'default'} onClick={() => choose(d)} data-testid={`conflict-${d}`}>
                {DECISION_LABELS[d]}
              </Button>
            ))}
          </Space>
        </div>
      )}
    </Modal>
  );
}
