import { FILE_CATEGORY } from '../../../common/api/types';
import { FilesPage } from './FilesPage';

export function PersonalFilesPage() {
  return <FilesPage category={FILE_CATEGORY.personal} rootName="个人文件" />;
}
