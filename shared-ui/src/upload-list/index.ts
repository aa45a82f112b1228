export {
  checkFiles,
  createUploadItem,
  formatBytes,
  revokeUploadItem,
  type UploadItem,
  type UploadLimits,
  type UploadRejection,
  type UploadStatus,
} from './upload-item.ts';
export { UploadList, type UploadListProps } from './upload-list.tsx';
