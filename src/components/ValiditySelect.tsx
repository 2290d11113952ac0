import { Select } from 'antd';
import { useValidityChoices } from '../lib/data/sharing';

/** The validity of a share or link: the static data list `validity` (days; 0 = until revoked). */
export function ValiditySelect({ value, onChange, testId, allowKeep }: { value: number | undefined; onChange: (days: number | undefined) => void; testId: string; allowKeep?: boolean }) {
  const { items } = useValidityChoices();
  const options = items.length > 0 ? items.map((i) => ({ value: Number(i.value), label: i.label })) : [{ value: 0, label: '永久有效' }];
  return (
    <Select
      value={value}
      allowClear={allowKeep}
      placeholder={allowKeep ? '不改变' : undefined}
      onChange={(v: number | undefined) => onChange(v)}
      options={options}
      style={{ width: 160 }}
      data-testid={testId}
    />
  );
}
