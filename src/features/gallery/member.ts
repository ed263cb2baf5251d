import { useSession } from '../auth/store.ts';

/** The signed-in member's id: the accountId of every gallery call. */
export const memberId = (): string => useSession.getState().user?.id ?? '';
