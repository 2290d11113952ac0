/** User-facing texts the engine produces itself (Chinese, like the server's errorMessage). */
export const MESSAGES = {
  networkRetrying: '网络连接失败，稍后将自动重试',
  networkGaveUp: '网络连接失败，请检查网络后重试',
  serverRetrying: '服务器暂时不可用，稍后将自动重试',
  serverGaveUp: '服务器暂时不可用，请稍后重试',
  sessionExpired: '登录已过期，请重新登录后继续',
  fileUnreadable: '无法读取文件，请重新选择该文件后继续',
  fileChanged: '文件在上传过程中被修改，请重新上传',
  uploadExpired: '上传任务已过期，正在重新开始',
  uploadFailed: '上传失败，请重试',
  protocolMismatch: '服务器返回的分片信息不一致，请重试',
  fileTooLarge: (limit: string) => `文件大小超过上限（${limit}）`,
  httpStatus: (status: number) => `上传失败（HTTP ${status}），请重试`,
} as const;
