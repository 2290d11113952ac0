import { ACTION_AREAS, ACTION_CODES, ACTION_OUTCOMES, actionArea, actionLabel, TARGET_TYPE_LABELS, type ActionTarget } from '../../../common/api/action-codes';
import type { ActionLogEntry } from '../../../common/api/action-log';
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

export function targetText(t: ActionTarget): string {
  return t.name || t.id;
}

export function targetsText(targets: readonly ActionTarget[]): string {
  if (targets.length === 0) return '-';
  const first = targets.slice(0, 3).map(targetText).join('、');
  return targets.length > 3 ? `${first} 等 ${targets.length} 项` : first;
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
