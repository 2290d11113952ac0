import type { ProcessedListRequest } from '../../../common/api/endpoints/exchange';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import {
  EXCHANGE_TEXT_SCAN_BYTES,
  type InterceptedFile,
  type KeepOnDownloadResponse,
  type ProcessedListResponse,
  type SwapCheckResponse,
  type SwapCheckResult,
} from '../../../common/api/sharing';
import { FILE_CATEGORY } from '../../../common/api/types';
import { fileKindOf } from '../../../common/files/kind';
import { formatSize } from '../../../common/format/size';
import type { ExchangeFilesTable, FilesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { ExchangeRepository } from '../../repositories/exchange-repository';
import type { FileRepository } from '../../repositories/file-repository';
import { actionLog, fileTarget } from '../action-log/recorder';
import { extensionOf, type BlockedTypes } from '../blocked-types';
import type { Caller } from '../caller';
import type { DownloadService } from '../download-service';
import type { AccessService } from '../space-access';
import type { TrashService } from '../trash-service';
import type { ByteGate } from './byte-gate';
import type { ContentTextRepository } from '../../repositories/content-text-repository';
import type { FileSecurityService } from './file-security-service';
import { decodePosition, encodePosition, pageSizeOf } from './share-service';

/** Text content scanned for keywords: these kinds, read up to EXCHANGE_TEXT_SCAN_BYTES. */
const TEXT_EXTENSIONS = new Set(['txt', 'md', 'csv', 'log', 'json', 'xml', 'yaml', 'yml', 'ini', 'conf', 'html', 'htm']);
const INTERCEPTED_LIST_MAX = 1000;

export interface ExchangeServiceDeps {
  access: AccessService;
  files: FileRepository;
  exchange: ExchangeRepository;
  security: FileSecurityService;
  /** Keyword hits in the files' extracted texts (PDFs, Office files: docrend's pipeline). */
  contentTexts?: ContentTextRepository;
  types: BlockedTypes;
  downloads: DownloadService;
  trash: TrashService;
  gate: ByteGate;
  exchangeOn: (tenantId: string) => Promise<boolean>;
}

/**
 * The exchange area (category 3, the 其他 page) between the internal and the public network
 * builds (sharing.ts). checkSwap judges the caller's exchange files (and the files of folders) by the
 * tenant's rules — type allow-list (and the tenant's blocked types), size cap, sensitive keywords in
 * the name and in text content — and records each as passed (usable from the other build) or
 * intercepted with the reason. fileSafe/check judges the same way and records nothing.
 */
export class ExchangeService {
  constructor(private readonly deps: ExchangeServiceDeps) {}

  /** The caller's own exchange-area entries, folders expanded to their files. */
  private async ownFiles(caller: Caller, ids: readonly string[]): Promise<{ tops: FilesTable[]; files: FilesTable[] }> {
    const entries = await this.deps.access.entries(caller, ids);
    if (entries.some((e) => e.access || e.share || e.row.category !== FILE_CATEGORY.exchange)) throw new AppError(ERRORS.EXCHANGE_NOT_IN_AREA);
    const files: FilesTable[] = [];
    for (const { row } of entries) {
      if (row.is_dir === 0) files.push(row);
      else files.push(...(await this.deps.files.liveTree(caller.tenantId, row.id)).filter((r) => r.is_dir === 0).map(({ depth: _d, ...r }) => r));
    }
    return { tops: entries.map((e) => e.row), files };
  }

  async check(caller: Caller, ids: readonly string[], commit: boolean, now = Date.now()): Promise<SwapCheckResponse> {
    const detail: Record<string, unknown> = { side: caller.networkEnv };
    const entry = { action: commit ? ('exchange.check' as const) : ('exchange.safeCheck' as const), targets: [] as ReturnType<typeof fileTarget>[], detail };
    actionLog.record(entry);
    if (commit && !(await this.deps.exchangeOn(caller.tenantId))) throw new AppError(ERRORS.EXCHANGE_DISABLED);
    const { tops, files } = await this.ownFiles(caller, ids);
    entry.targets = tops.map(fileTarget);
    const results = await this.judge(caller.tenantId, files);
    detail.passed = results.filter((r) => r.passed).length;
    detail.intercepted = results.filter((r) => !r.passed).map((r) => `${r.name}：${r.reason}`).slice(0, 20);
    if (commit) {
      const byId = new Map(files.map((f) => [f.id, f]));
      await this.deps.exchange.record(
        caller.tenantId,
        caller.userId,
        caller.networkEnv,
        results.map((r) => ({ fileId: r.id, passed: r.passed, reason: r.reason, blobId: byId.get(r.id)!.blob_id })),
        now,
      );
    }
    return { results };
  }

  /** Every rule on every file; the first reason that applies. */
  private async judge(tenantId: string, files: readonly FilesTable[]): Promise<SwapCheckResult[]> {
    const [rules, keywords, blocked] = await Promise.all([this.deps.security.exchangeRules(tenantId), this.deps.security.sensitiveKeywords(tenantId), this.deps.types.blockedExtensions(tenantId)]);
    const words = keywords.filter(Boolean);
    const contentHits = rules.keywordCheck && this.deps.contentTexts ? await this.deps.contentTexts.hitsOf(files.filter((f) => f.blob_id).map((f) => f.blob_id!), words) : new Map<string, Array<{ keyword: string; page: number | null }>>();
    const out: SwapCheckResult[] = [];
    for (const f of files) {
      const ext = extensionOf(f.name);
      let reason: string | null = null;
      if (ext && blocked.includes(ext)) reason = `不允许的文件类型（.${ext}）`;
      else if (rules.allowedExtensions.length > 0 && !rules.allowedExtensions.includes(ext)) reason = `文件类型不在允许交换的类型中（${ext ? `.${ext}` : '无扩展名'}）`;
      else if (rules.maxFileSize > 0 && Number(f.size) > rules.maxFileSize) reason = `文件超过交换大小上限（${formatSize(rules.maxFileSize)}）`;
      else if (rules.keywordCheck) {
        const inName = words.find((w) => f.name.toLowerCase().includes(w.toLowerCase()));
        const inText = f.blob_id ? contentHits.get(f.blob_id)?.[0] : undefined;
        if (inName) reason = `文件名含敏感词“${inName}”`;
        else if (inText) reason = `文件内容含敏感词“${inText.keyword}”${inText.page ? `（第${inText.page}页）` : ''}`;
        else if (TEXT_EXTENSIONS.has(ext) || fileKindOf(f.name, false) === 'txt') {
          const inContent = await this.keywordInContent(tenantId, f, words);
          if (inContent) reason = `文件内容含敏感词“${inContent}”`;
        }
      }
      out.push({ id: f.id, name: f.name, passed: reason === null, reason });
    }
    return out;
  }

  private async keywordInContent(tenantId: string, f: FilesTable, words: readonly string[]): Promise<string | null> {
    if (!f.blob_id || words.length === 0 || Number(f.size) === 0) return null;
    const file = await this.deps.downloads.ofBlob(tenantId, f.name, f.blob_id);
    const end = Math.min(file.size, EXCHANGE_TEXT_SCAN_BYTES) - 1;
    const parts: Buffer[] = [];
    for await (const piece of file.open({ start: 0, end }) as AsyncIterable<Buffer>) parts.push(piece);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(parts)).toLowerCase();
    return words.find((w) => text.includes(w.toLowerCase())) ?? null;
  }

  /** `unProcess/list?scope=exchange`: the caller's intercepted files not dealt with yet. */
  async intercepted(caller: Caller): Promise<InterceptedFile[]> {
    return this.describe(caller, await this.deps.exchange.intercepted(caller.tenantId, caller.userId, INTERCEPTED_LIST_MAX));
  }

  /**
   * `processed/list`: with `ids` and `decision`, deals with intercepted files first (dismiss: it
   * leaves the list, the file stays flagged; delete: it goes to the recycle bin); answers the ones
   * dealt with, newest first.
   */
  async processed(caller: Caller, req: ProcessedListRequest, now = Date.now()): Promise<ProcessedListResponse> {
    if (req.ids?.length) {
      const decision = req.decision ?? 'dismiss';
      const entry = { action: 'exchange.process' as const, targets: [] as ReturnType<typeof fileTarget>[], detail: { decision } };
      actionLog.record(entry);
      const { tops } = await this.ownFiles(caller, req.ids);
      entry.targets = tops.map(fileTarget);
      const records = await this.deps.exchange.find(tops.map((t) => t.id));
      if (tops.some((t) => records.get(t.id)?.state !== 'intercepted')) throw new AppError(ERRORS.VALIDATION, '只能处理被拦截的文件');
      if (decision === 'delete') await this.deps.trash.trashEntries(caller, tops.map((row) => ({ row })), now);
      await this.deps.exchange.markProcessed(caller.tenantId, caller.userId, tops.map((t) => t.id), decision, now);
    } else {
      actionLog.notAnAction();
    }
    const pageSize = pageSizeOf(req.pageSize);
    const rows = await this.deps.exchange.processed(caller.tenantId, caller.userId, decodePosition(req.cursor), pageSize + 1);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return { items: await this.describe(caller, page), nextCursor: rows.length > pageSize && last ? encodePosition(Number(last.processed_at), last.file_id) : null };
  }

  private async describe(caller: Caller, rows: readonly ExchangeFilesTable[]): Promise<InterceptedFile[]> {
    const files = new Map((await this.deps.files.findManyInTenant(caller.tenantId, rows.map((r) => r.file_id))).map((f) => [f.id, f]));
    return rows.map((r) => ({
      id: r.file_id,
      name: files.get(r.file_id)?.name ?? '',
      side: r.side,
      reason: r.reason ?? '',
      checkedAt: Number(r.checked_at ?? r.created_at),
      processedAt: r.processed_at === null ? null : Number(r.processed_at),
      processing: (r.processing as InterceptedFile['processing']) ?? null,
    }));
  }

  /** keepOnDownload: the caller confirms downloading an intercepted file of theirs; the address downloads it. */
  async keepOnDownload(caller: Caller, id: string, now = Date.now()): Promise<KeepOnDownloadResponse> {
    const entry = { action: 'exchange.confirmDownload' as const, targets: [] as ReturnType<typeof fileTarget>[] };
    actionLog.record(entry);
    const { tops } = await this.ownFiles(caller, [id]);
    const file = tops[0]!;
    entry.targets = [fileTarget(file)];
    if (file.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    const token = this.deps.gate.confirmToken(caller, file.id, now);
    // The confirmation holds only where the file is flagged and on this build (ByteGate decides the rest).
    await this.deps.gate.assertExchange(caller, [file], 'download', new Set([file.id]));
    return { url: `${API.downloadPrefix}${encodeURIComponent(file.id)}?confirm=${encodeURIComponent(token)}` };
  }
}
