/**
 * What a preview that the server refused shows: its coded error's own text (PREVIEW_UNSUPPORTED's
 * 该文件类型不支持预览, SHARE_PREVIEW_ONLY, a link gone…) rather than a generic failure.
 */
import { classifyFailure } from '../../common/api/failure';

export async function previewFailureText(res: Response, fallback: string): Promise<string> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not a coded answer
  }
  const failure = classifyFailure(res.status, body);
  if (failure.kind === 'badRequest' && failure.errorMessage) return failure.errorMessage;
  return fallback;
}

/** A failed preview fetch, with the text to show. */
export class PreviewFailure extends Error {}

/** Throws PreviewFailure with the coded error's text when the answer is not a success. */
export async function assertPreviewOk(res: Response, fallback: string): Promise<Response> {
  if (!res.ok) throw new PreviewFailure(await previewFailureText(res, fallback));
  return res;
}
