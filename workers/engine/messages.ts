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
  chunkSizeChanged: '服务器的分片大小已改变，正在重新计算后上传',
  uploadFailed: '上传失败，请重试',
  protocolMismatch: '服务器返回的分片信息不一致，请重试',
  fileTooLarge: (limit: string) => `文件大小超过上限（${limit}）`,
  stalledRetrying: '上传长时间没有进展，正在重试',
  serverBusy: '服务器繁忙，稍后将自动重试',
  offline: '网络已断开，恢复后自动继续',
  blockedType: '该文件类型禁止上传',
  /** The bytes are a program or a script (recognised by content, whatever the name) and the tenant blocks executables. */
  blockedContent: '文件内容为可执行程序或脚本，禁止上传',
  overQuota: '空间不足，无法上传',
  /** A name the server refused without saying why (it always does: its errorMessage is shown). */
  badName: '名称不符合命名规则，请重命名后上传',
  held: {
    exists: '当前目录下已存在同名文件，请选择上传为新版本或重命名',
    existsNotYours: '当前目录下已有他人的同名文件，您无权覆盖，只能重命名后上传',
    sensitive: '文件名包含敏感内容，请确认是否继续上传',
    locked: '同名文件已被他人锁定，只能重命名后上传或放弃上传',
    fileMissing: '无法读取文件，请重新选择该文件后继续',
    unauthorized: '登录已过期，请重新登录后继续',
  },
  httpStatus: (status: number) => `上传失败（HTTP ${status}），请重试`,
} as const;
