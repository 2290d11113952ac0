import { FILES } from '../../../common/api/endpoints/files';
import { send } from './send';

/** No entry point imports this module. */
export const dirList = (): Promise<unknown> => send(FILES.dirList.path, {});
