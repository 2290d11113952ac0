import { ACTION_AREAS, ACTION_CODES, ACTION_OUTCOMES, actionArea, actionLabel, TARGET_TYPE_LABELS, type ActionTarget } from '../../../common/api/action-codes';
import type { ActionLogEntry } from '../../../common/api/action-log';
import { TENANT_SWITCH_LABELS } from '../../../common/api/tenant';
import { ROLES } from '../../../common/api/types';

/** The action filter's options, grouped by area (登录, 文件, 群组…). */
export const ACTION_OPTIONS = Object.entries(ACTION_AREAS).map(([area, label]) => ({
  label,
  title: label,
  options: ACTION_CODES.filter((code) => actionArea(code) === area).map((code) => ({ value: code, label: actionLabel(code) })),
}));

export const OUTCOME_OPTIONS = Object.entries(ACTION_OUTCOMES).map(([value, label]) => ({ value, label }));

const ROLE_NAMES: Record<string, string> = { ...Object.fromEntries(ROLES.map((r) => [r.code, r.name])), system: '系统', '': '未知账号' };

export function roleName(role: string): string {
  return ROLE_NAMES[role] ?? role;
}

export function operatorText(e: ActionLogEntry): string {
  if (e.actor.role === 'system') return '系统';
  return e.actor.name ? `${e.actor.name}（${e.actor.account}）` : e.actor.account || '-';
}

/** Records that stand for files (a link, a share, an application) and are named after them. */
const NAMED_AFTER_FILES = new Set(['link', 'share', 'application']);

/**
 * The objects a record names, each once and by name, never by id: a link, share or application
 * recorded beside the files it is named after (link.create: the file and its link, both "合同.pdf")
 * is shown through those files; a target recorded without a name (a refused call that never found
 * it) is shown by its kind (分享链接), not by the id the caller sent.
 */
export function objectTargets(targets: readonly ActionTarget[]): ActionTarget[] {
  const named = targets.filter((t) => t.name.trim() !== '');
  const shown = named.filter((t) => {
    if (!NAMED_AFTER_FILES.has(t.type)) return true;
    const others = new Set(named.filter((o) => o !== t && !NAMED_AFTER_FILES.has(o.type)).map((o) => o.name));
    // An application is named after all its files, joined with 、 (and cut at 200 characters).
    return !t.name.split('、').every((part, i, parts) => others.has(part) || (i === parts.length - 1 && [...others].some((o) => o.startsWith(part))));
  });
  const out: ActionTarget[] = [];
  const seen = new Set<string>();
  for (const t of shown) {
    if (seen.has(t.name)) continue;
    seen.add(t.name);
    out.push(t);
  }
  if (out.length > 0) return out;
  // Nothing named: the kinds, once each.
  const kinds = new Set<string>();
  return targets.filter((t) => !kinds.has(t.type) && kinds.add(t.type));
}

/** One object as shown: its name, or (unnamed) its kind. Switches recorded before they had names (their key) read as 系统配置 names them. */
export function targetText(t: ActionTarget): string {
  if (t.type === 'setting' && Object.hasOwn(TENANT_SWITCH_LABELS, t.name)) return TENANT_SWITCH_LABELS[t.name as keyof typeof TENANT_SWITCH_LABELS];
  return t.name.trim() || targetTypeLabel(t);
}

export function targetsText(targets: readonly ActionTarget[]): string {
  const objects = objectTargets(targets);
  if (objects.length === 0) return '-';
  const first = objects.slice(0, 3).map(targetText).join('、');
  return objects.length > 3 ? `${first} 等 ${objects.length} 项` : first;
}

export function targetTypeLabel(t: ActionTarget): string {
  return TARGET_TYPE_LABELS[t.type] ?? t.type;
}

const CLIENT_TYPES: Record<number, string> = { 3: '内网版', 4: '外网版' };
const PLATFORMS: Record<string, string> = { web: '网页端', desktop: '桌面端', server: '服务器' };
const NETWORKS: Record<string, string> = { internal: '内网', public: '外网' };

export function clientText(e: ActionLogEntry): string {
  const parts = [PLATFORMS[e.platform] ?? e.platform, e.clientType ? CLIENT_TYPES[e.clientType] : '', NETWORKS[e.networkEnv] ? `${NETWORKS[e.networkEnv]}访问` : ''];
  return parts.filter(Boolean).join(' · ') || '-';
}
