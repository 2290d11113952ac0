import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { previewUrl } from '../../../../common/api/paths';
import type { FileEntry } from '../../../../common/api/types';
import { formatSize } from '../../../../common/format/size';
import { decodeCsv, parseCsv, type ParsedCsv } from './csv-parse';
import { assertPreviewOk, PreviewFailure } from '../../../lib/preview-failure';

/** Bytes read from the start of the file (one Range request): enough for the rows shown. */
const CSV_PREVIEW_BYTES = 2 * 1024 * 1024;
const CSV_PREVIEW_ROWS = 1000;

/** A CSV as a table: the header row sticky, at most CSV_PREVIEW_ROWS rows of the file's first 2 MiB. */
export function CsvPreview({ file, fallback }: { file: FileEntry; fallback: string }) {
  const [state, setState] = useState<{ csv?: ParsedCsv; error?: string }>({});
  const partial = file.size > CSV_PREVIEW_BYTES;
  useEffect(() => {
    const controller = new AbortController();
    fetch(previewUrl(file.id), { credentials: 'include', signal: controller.signal, headers: partial ? { Range: `bytes=0-${CSV_PREVIEW_BYTES - 1}` } : {} })
      .then(async (res) => {
        const text = decodeCsv(await (await assertPreviewOk(res, fallback)).arrayBuffer(), partial);
        const csv = parseCsv(text, CSV_PREVIEW_ROWS + 1);
        // The last line of a cut-off read may be cut off itself.
        if (partial && csv.rows.length <= CSV_PREVIEW_ROWS) csv.rows.pop();
        setState({ csv: { rows: csv.rows.slice(0, CSV_PREVIEW_ROWS), truncated: partial || csv.rows.length > CSV_PREVIEW_ROWS || csv.truncated } });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ error: e instanceof PreviewFailure ? e.message : fallback });
      });
    return () => controller.abort();
  }, [file.id, partial, fallback]);

  if (state.error) return <Alert type="error" showIcon title={state.error} data-testid="preview-failed" />;
  if (!state.csv) return <Spin />;
  const [head = [], ...body] = state.csv.rows;
  const width = Math.max(head.length, ...body.map((r) => r.length));
  const cells = (row: string[]) => Array.from({ length: width }, (_, i) => row[i] ?? '');
  return (
    <div style={{ width: '100%', display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div style={{ maxHeight: 'min(65vh, 680px)', overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6 }} tabIndex={0} aria-label={`${file.name} 的内容`}>
        <table className="csv-preview" data-testid="preview-csv">
          <thead>
            <tr>
              <th scope="col" className="csv-rownum">
                #
              </th>
              {cells(head).map((h, i) => (
                <th key={i} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {body.map((row, r) => (
              <tr key={r}>
                <td className="csv-rownum">{r + 1}</td>
                {cells(row).map((c, i) => (
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <span style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12 }} data-testid="preview-csv-summary">
        {state.csv.truncated ? `仅显示前 ${body.length} 行（文件共 ${formatSize(file.size)}），完整内容请下载后查看` : `共 ${body.length} 行`}
      </span>
    </div>
  );
}
