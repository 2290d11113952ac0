import { API } from '../../../common/api/paths';
import type { DepartmentNode } from '../../../common/api/types';
import type { PhoneMaskRule } from '../../../common/org/phone-mask';
import { api } from '../../lib/api';

export const createDepartment = (parentId: string | null, name: string) => api.post<DepartmentNode>(API.departmentCreate, { parentId, name });
export const updateDepartment = (id: string, patch: { name?: string; managerId?: string | null }) => api.post<DepartmentNode>(API.departmentUpdate, { id, ...patch });
export const moveDepartment = (id: string, parentId: string | null, beforeId: string | null) => api.post<DepartmentNode>(API.departmentMove, { id, parentId, beforeId });
export const deleteDepartment = (id: string) => api.post<null>(API.departmentDelete, { id });
export const setPhoneMask = (phoneMask: PhoneMaskRule) => api.post<null>(API.orgSettingsUpdate, { phoneMask });
