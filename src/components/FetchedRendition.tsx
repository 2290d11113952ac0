import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { assertPreviewOk, PreviewFailure } from '../lib/preview-failure';

/** A text rendition shows at most this much (read with a Range: a large log never loads whole). */
export const TEXT_RENDITION_MAX_BYTES = 2 * 1024 * 1024;

/**
 * A text rendition fetched from a preview route (the link pages' and the approver's: the same rules as
 * the file pages' preview, no user content runs on our origin), shown as text. Documents have their
 * viewer (components/document). A refusal shows the server's coded reason.
 */
export function FetchedRendition({ url, testId }: { url: string; /** On the text shown. */ testId: string }) {
  const [state, setState] = useState<{ text?: string; error?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    const headers: Record<string, string> = { Range: `bytes=0-${TEXT_RENDITION_MAX_BYTES - 1}` };
    fetch(url, { credentials: 'include', signal: controller.signal, referrerPolicy: 'no-referrer', headers })
      .then(async (res) => {
        await assertPreviewOk(res, '无法加载预览');
        setState({ text: await res.text() });
      })
      .catch((e: unknown) => {
        // The server's coded refusal says why (该文件类型不支持预览…), else the generic failure.
        if (!controller.signal.aborted) setState({ error: e instanceof PreviewFailure ? e.message : '无法加载预览' });
      });
    return () => controller.abort();
  }, [url]);
  if (state.error) return <Alert type="error" showIcon title={state.error} />;
  if (state.text !== undefined) {
    return (
      <pre data-testid={testId} style={{ boxSizing: 'border-box', width: '100%', maxHeight: '65vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', background: '#fafafa', padding: 12, margin: 0 }}>
        {state.text}
      </pre>
    );
  }
  return <Spin />;
}
