import { Button } from 'antd';
import { checkFileName, suggestFileName } from '../../common/validation/names';

/**
 * Under a name input: when the typed name breaks the rule and a valid name is close (its forbidden
 * characters as full-width twins, common/validation/names.ts suggestFileName), one click takes it.
 * Renders nothing for a valid name or one without a suggestion.
 */
export function NameFix({ value, onFix, testId = 'name-fix' }: { value: string; onFix: (name: string) => void; testId?: string }) {
  if (checkFileName(value) === null) return null;
  const suggestion = suggestFileName(value);
  if (suggestion === null || suggestion === value) return null;
  return (
    <Button type="link" size="small" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start', wordBreak: 'break-all' }} onClick={() => onFix(suggestion)} data-testid={testId}>
      一键改为「{suggestion}」
    </Button>
  );
}
