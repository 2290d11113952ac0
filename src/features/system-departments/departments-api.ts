import { ORG } from '../../../common/api/endpoints/org';
import type { PhoneMaskRule } from '../../../common/org/phone-mask';
import { api } from '../../lib/api';

export const createDepartment = (parentId: string | null, name: string) => api.call(ORG.departmentCreate, { parentId, name });
export const updateDepartment = (id: string, patch: { name?: string; managerId?: string | null }) => api.call(ORG.departmentUpdate, { id, ...patch });
export const moveDepartment = (id: string, parentId: string | null, beforeId: string | null) => api.call(ORG.departmentMove, { id, parentId, beforeId });
export const deleteDepartment = (id: string) => api.call(ORG.departmentDelete, { id });
export const setPhoneMask = (phoneMask: PhoneMaskRule) => api.call(ORG.settingsUpdate, { phoneMask });
