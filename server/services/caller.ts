/** Who is calling: taken from the session, never from the request body. */
export interface Caller {
  userId: string;
  tenantId: string;
  username: string;
  role: 'admin' | 'member';
  mustChangePassword: boolean;
}
