import { useAtomValue } from 'jotai';
import { sessionAtom, sessionUserAtom } from './session.atoms';

export const useSession = () => useAtomValue(sessionAtom);
export const useSessionUser = () => useAtomValue(sessionUserAtom);
