import { API } from '../../../common/api/paths';
import type { MenuItem, UserDetails } from '../../../common/api/types';
import { api } from '../../lib/api';

export const fetchMenu = (): Promise<MenuItem[]> => api.get<MenuItem[]>(API.menu);
export const fetchUserDetails = (): Promise<UserDetails> => api.post<UserDetails>(API.userDetails, {});
