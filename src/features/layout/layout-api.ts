import { API } from '../../../common/api/paths';
import type { MenuItem } from '../../../common/api/types';
import { api } from '../../lib/api';

export { fetchUserDetails } from '../../lib/account-api';
export const fetchMenu = (): Promise<MenuItem[]> => api.get<MenuItem[]>(API.menu);
