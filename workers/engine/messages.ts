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
  /** canBeUploadType named the type (or the list it last gave does, offline). */
  blockedTypeOf: (extension: string) => `管理员禁止上传 .${extension} 类型的文件`,
  /** Queued offline: the pre-upload checks are asked before the first byte goes. */
  checksPending: '离线中：联网后先完成上传检查，再开始上传',
  /** 上传新版本, and the file is gone for the caller (fileVersion/check by id: deleted, or no longer shared). */
  versionGone: '原文件已被删除或不再与您共享，无法上传为它的新版本',
  /** 上传新版本 of a file the caller may no longer change (a share narrowed to preview or download). */
  versionNotEditable: '您对原文件没有编辑权限，无法上传新版本',
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
    versionLocked: '原文件已被他人锁定，暂不能上传新版本：可另存为新文件（重命名后上传）或放弃',
    fileMissing: '无法读取文件，请重新选择该文件后继续',
    unauthorized: '登录已过期，请重新登录后继续',
  },
  httpStatus: (status: number) => `上传失败（HTTP ${status}），请重试`,
} as const;
