/**
 * The coded error catalogue, shared by server (which answers with these) and clients (which react to
 * some codes specially, spec §8). Messages are the Chinese text a user sees.
 */
export interface ErrorDef {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 416 | 429 | 500;
  readonly message: string;
}

export const ERRORS = {
  // §8: the session was ended by the server (kicked out, account locked...). Client shows '登出' box.
  SESSION_TERMINATED: { code: '400sec-core-301', status: 400, message: '您的账号已在别处登录或已被管理员登出' },
  // §8: download quota exceeded → /downloadExceeded.
  DOWNLOAD_EXCEEDED: { code: 'DEP10213', status: 500, message: '下载次数已超过限制' },

  UNAUTHORIZED: { code: 'AUTH-401', status: 401, message: '未登录或登录已过期，请重新登录' },
  LOGIN_FAILED: { code: 'AUTH-1001', status: 400, message: '账号或密码错误' },
  CAPTCHA_REQUIRED: { code: 'AUTH-1002', status: 400, message: '请输入验证码' },
  CAPTCHA_INVALID: { code: 'AUTH-1003', status: 400, message: '验证码错误或已过期，请重新获取' },
  PASSWORD_CHANGE_REQUIRED: { code: 'AUTH-1004', status: 400, message: '请先修改初始密码' },
  FORBIDDEN: { code: 'AUTH-1005', status: 400, message: '没有权限执行此操作' },
  BAD_ORIGIN: { code: 'AUTH-1006', status: 400, message: '请求来源不被允许' },

  VALIDATION: { code: 'REQ-2001', status: 400, message: '请求参数不正确' },
  NAME_EMPTY: { code: 'FILE-3001', status: 400, message: '名称不能为空' },
  NAME_INVALID_CHARS: { code: 'FILE-3002', status: 400, message: '名称不能包含以下字符：| , / < > * ? \\ [ ]' },
  NAME_TOO_LONG: { code: 'FILE-3003', status: 400, message: '名称长度不能超过255个字符' },
  NAME_CONFLICT: { code: 'FILE-3004', status: 400, message: '当前目录下已存在同名文件或文件夹' },
  NOT_FOUND: { code: 'FILE-3005', status: 404, message: '文件不存在或已被删除' },
  PARENT_NOT_FOLDER: { code: 'FILE-3006', status: 400, message: '目标位置不是文件夹' },
  RANGE_NOT_SATISFIABLE: { code: 'FILE-3007', status: 416, message: '请求的数据范围超出文件大小' },
  IS_FOLDER: { code: 'FILE-3008', status: 400, message: '文件夹不能直接下载' },
  NAME_IDENT_INVALID: { code: 'FILE-3009', status: 400, message: '名称只能包含中文、字母、数字和下划线' },
  NAME_INVISIBLE_CHARS: { code: 'FILE-3021', status: 400, message: '名称不能包含控制字符或不可见字符（如零宽字符、文字方向控制符）' },
  NAME_TRAILING_DOT: { code: 'FILE-3022', status: 400, message: '名称不能以点号结尾' },
  NAME_RESERVED: { code: 'FILE-3023', status: 400, message: '名称不能使用系统保留名（CON、PRN、AUX、NUL、COM1–COM9、LPT1–LPT9）' },

  UPLOAD_NOT_FOUND: { code: 'UPL-4001', status: 400, message: '上传任务不存在或已过期' },
  CHUNK_DIGEST_MISMATCH: { code: 'UPL-4002', status: 400, message: '分片校验失败，请重试' },
  CHUNK_SIZE_MISMATCH: { code: 'UPL-4003', status: 400, message: '分片大小不正确' },
  CHUNK_INDEX_INVALID: { code: 'UPL-4004', status: 400, message: '分片序号不正确' },
  CHUNKS_MISSING: { code: 'UPL-4005', status: 400, message: '文件分片不完整，无法合并' },
  FINGERPRINT_MISMATCH: { code: 'UPL-4006', status: 400, message: '文件校验失败，请重新上传' },
  QUOTA_EXCEEDED: { code: 'UPL-4007', status: 400, message: '空间不足，无法上传' },
  // Appended by the transfer-engine server work.
  /** The tenant blocks this file type (canBeUploadType); enforced on chunk/exist, merge and second upload. */
  FILE_TYPE_BLOCKED: { code: 'UPL-4008', status: 400, message: '不允许上传该类型的文件' },
  /** newVersion onto a file another user has locked. */
  FILE_LOCKED: { code: 'FILE-3010', status: 400, message: '文件已被他人锁定，无法覆盖' },
  /** A state-changing GET (keepOnUpload, giveUpUpload) without the X-Client-Platform header. */
  PLATFORM_HEADER_REQUIRED: { code: 'REQ-2006', status: 400, message: '缺少客户端平台标识，请求被拒绝' },

  // Appended by the server work: unknown API path, and a request body above the route's limit.
  ROUTE_NOT_FOUND: { code: 'REQ-2004', status: 404, message: '请求的接口不存在' },
  PAYLOAD_TOO_LARGE: { code: 'REQ-2005', status: 413, message: '请求内容过大' },
  /** X-Client-Op-Id is not 16-64 characters of [A-Za-z0-9_-]. */
  OP_ID_INVALID: { code: 'REQ-2007', status: 400, message: '操作标识格式不正确' },
  /** The op id was used before for another request (another path or body): nothing was run. */
  OP_ID_REUSED: { code: 'REQ-2008', status: 400, message: '操作标识已用于其他请求' },
  /** The first request with this op id is still running: retry shortly to get its answer. */
  OP_IN_PROGRESS: { code: 'REQ-2009', status: 409, message: '该操作正在处理中，请稍后重试' },
  /** The body's encoding is not the one the route takes (spec §7: JSON, or form where stated). */
  BODY_ENCODING_UNSUPPORTED: { code: 'REQ-2010', status: 415, message: '请求内容的编码方式不被该接口接受' },

  // Appended by the partial-chunk resume work: a chunk upload with `offset` > 0 when the server does
  // not hold that many bytes of the chunk (the client restarts the chunk from offset 0).
  CHUNK_OFFSET_MISMATCH: { code: 'UPL-4009', status: 400, message: '分片续传位置与服务器记录不一致，请从头重传该分片' },
  /**
   * Issue 35: the bytes are a program or a script (PE, ELF, Mach-O, '#!/'), recognised by their first
   * bytes whatever the name, and the tenant blocks executable types (common/files/content-signatures.ts).
   */
  FILE_CONTENT_BLOCKED: { code: 'UPL-4010', status: 400, message: '文件内容为可执行程序或脚本，不允许上传' },
  /**
   * chunk/exist at another chunk size than the server's (its CHUNK_SIZE changed since the client
   * hashed the file): the client asks uploadConfig again and hashes the file at the new size
   * (common/transfer/chunk-policy.ts). errorMessage names the size.
   */
  CHUNK_SIZE_CHANGED: { code: 'UPL-4011', status: 400, message: '服务器的分片大小已改变，请按新的分片大小重新计算后上传' },
  /**
   * An upload sent with the purpose 'clientInstaller' (endpoints/uploads.ts UploadPurpose) by someone
   * who may not set the tenant's client releases: the purpose lets an installer past the blocked-type
   * and executable-content checks, so only those admins may send it.
   */
  INSTALLER_UPLOAD_FORBIDDEN: { code: 'UPL-4012', status: 400, message: '只有可设置客户端版本的管理员可以上传客户端安装包' },

  // Appended by the accounts work (issue 4). Login throttling and lock rules: see LoginForm in endpoints/auth.ts.
  /** Locked by an admin or after too many failed logins; an admin unlocks it. */
  ACCOUNT_LOCKED: { code: 'AUTH-1007', status: 400, message: '账号已被锁定，请联系管理员解锁' },
  /** Too many failures from this account name or address: wait (Retry-After header, seconds in the text). */
  TOO_MANY_ATTEMPTS: { code: 'AUTH-1008', status: 400, message: '尝试次数过多，请稍后再试' },
  /** The password is older than PASSWORD_EXPIRY_DAYS: only the change screen's APIs answer. */
  PASSWORD_EXPIRED: { code: 'AUTH-1009', status: 400, message: '密码已过期，请先修改密码' },
  /** Public-network build (X-Network-Env: public) and the account lacks outer login. */
  OUTER_LOGIN_REFUSED: { code: 'AUTH-1010', status: 400, message: '该账号未开通外网登录权限' },
  OLD_PASSWORD_WRONG: { code: 'AUTH-1011', status: 400, message: '原密码错误' },
  PASSWORD_SAME_AS_OLD: { code: 'AUTH-1012', status: 400, message: '新密码不能与原密码相同' },
  /** A new password breaking a §5 rule; the answer's errorMessage is that rule's exact §5 message. */
  PASSWORD_INVALID: { code: 'AUTH-1013', status: 400, message: '密码必须是8-16位字母、数字和符号三种组合' },
  /** setRoles would leave the tenant without an administrator. */
  LAST_ADMIN: { code: 'AUTH-1014', status: 400, message: '至少需要保留一名管理员' },
  /** A user id unknown in the caller's tenant (another tenant's ids included). */
  USER_NOT_FOUND: { code: 'AUTH-1016', status: 404, message: '用户不存在' },
  CANNOT_LOCK_SELF: { code: 'AUTH-1015', status: 400, message: '不能锁定当前登录的账号' },
  SMS_CODE_INVALID: { code: 'SMS-1101', status: 400, message: '短信验证码错误或已过期，请重新获取' },
  /** Per phone (one code per SMS_RESEND_MS, SMS_PER_PHONE_PER_HOUR) or per address (SMS_PER_ADDRESS_PER_HOUR). */
  SMS_TOO_FREQUENT: { code: 'SMS-1102', status: 400, message: '短信发送过于频繁，请稍后再试' },
  PHONE_INVALID: { code: 'SMS-1103', status: 400, message: '请输入正确的手机号码' },
  PHONE_IN_USE: { code: 'SMS-1104', status: 400, message: '该手机号已绑定其他账号' },
  /** 更换手机号 without the code sent to the phone bound now (needed when the SMS gateway delivers). */
  OLD_PHONE_CODE_REQUIRED: { code: 'SMS-1105', status: 400, message: '请填写原手机号收到的短信验证码' },
  PHONE_SAME_AS_OLD: { code: 'SMS-1106', status: 400, message: '新手机号不能与当前绑定的手机号相同' },
  /** A verifyPhone code asked for a phone that is not the caller's bound one (or none is bound). */
  NOT_BOUND_PHONE: { code: 'SMS-1107', status: 400, message: '只能向当前绑定的手机号发送验证码' },
  // Appended by the file operations work (issue 5).
  /** Move or copy of a folder into itself or one of its descendants. */
  MOVE_INTO_SELF: { code: 'FILE-3011', status: 400, message: '不能将文件夹移动或复制到其自身或其子文件夹中' },
  /** Rename, move, delete, lock or a new version of an entry another user has locked. */
  LOCKED_BY_OTHER: { code: 'FILE-3012', status: 400, message: '文件已被他人锁定，无法修改' },
  /**
   * Copy/move/restore met taken names: nothing was changed. The body carries `conflicts`
   * (NameConflict[], common/api/types.ts); retry with a decision per conflicting id.
   */
  CONFLICT_DECISION_REQUIRED: { code: 'FILE-3013', status: 400, message: '目标位置存在同名文件，请选择处理方式' },
  /** 'overwrite' chosen for a folder (or onto a folder): only rename or skip apply. */
  FOLDER_OVERWRITE_UNSUPPORTED: { code: 'FILE-3014', status: 400, message: '文件夹不能覆盖，请选择重命名或跳过' },
  /** Unlock by someone who is neither the locker nor an administrator. */
  UNLOCK_NOT_ALLOWED: { code: 'FILE-3015', status: 400, message: '只有锁定者或管理员可以解锁' },
  ZIP_TOO_LARGE: { code: 'FILE-3016', status: 400, message: '打包下载的文件数量或大小超过限制' },
  /** keepOnCreateTxt with an unknown, expired or already decided hold. */
  TXT_HOLD_NOT_FOUND: { code: 'FILE-3017', status: 400, message: '待处理的文本文件不存在或已处理' },
  TEXT_TOO_LARGE: { code: 'FILE-3018', status: 400, message: '文本内容过大' },
  /** The entry is in the recycle bin: restore it first. */
  IN_RECYCLE_BIN: { code: 'FILE-3019', status: 400, message: '文件已在回收站中' },
  /** Thumbnails exist only for pictures. */
  NO_THUMBNAIL: { code: 'FILE-3020', status: 400, message: '该文件没有缩略图' },
  /**
   * A preview of a type with no rendition a browser shows inline (byte-access.ts): the preview route
   * never hands out the original as an attachment, whoever asks. The download is the way to it.
   */
  PREVIEW_UNSUPPORTED: { code: 'FILE-3024', status: 400, message: '该文件类型不支持预览' },
  /**
   * An Office document's PDF rendition is still being made in the background (byte-access.ts,
   * docs/documents.md): the client shows 正在生成预览 and asks again in a few seconds.
   */
  PREVIEW_PENDING: { code: 'FILE-3030', status: 400, message: '正在生成预览' },
  /**
   * The tenant's publicDownLoad switch is off: files of the public space are previewed, never
   * downloaded, zipped, copied out or saved from a link (byte-access.ts), by anyone.
   */
  PUBLIC_DOWNLOAD_OFF: { code: 'FILE-3025', status: 400, message: '管理员已关闭公共空间下载，公共空间中的文件只能预览' },
  GROUP_NAME_CONFLICT: { code: 'GRP-6001', status: 400, message: '群组名称已存在' },
  GROUP_NOT_EMPTY: { code: 'GRP-6002', status: 400, message: '群组空间中仍有文件，无法删除' },
  GROUP_LAST_OWNER: { code: 'GRP-6003', status: 400, message: '群组至少需要保留一位所有者' },
  /**
   * member/add: no account of that name in the tenant; setRole/remove: a user of the tenant who is not
   * in the group. A user id unknown in the tenant (another tenant's included) answers USER_NOT_FOUND.
   */
  GROUP_USER_NOT_FOUND: { code: 'GRP-6004', status: 400, message: '用户不存在' },
  // Appended by the tenant work (issue 14): tenant profile, pictures, dictionaries.
  /** Another tenant's id from a tenant admin, or an id no tenant has. */
  TENANT_NOT_FOUND: { code: 'TNT-7001', status: 404, message: '租户不存在' },
  /** Not a PNG, JPEG, WebP or GIF by its bytes (SVG included), or not decodable. */
  TENANT_IMAGE_INVALID: { code: 'TNT-7002', status: 400, message: '图片格式不支持，请上传 PNG、JPG、WebP 或 GIF 图片' },
  TENANT_IMAGE_TOO_LARGE: { code: 'TNT-7003', status: 400, message: '图片过大，标志不超过 2MB，登录背景不超过 8MB' },
  TENANT_ALIAS_INVALID: { code: 'TNT-7004', status: 400, message: '别名只能包含字母、数字、下划线和短横线，长度 2-32 位' },
  TENANT_ALIAS_TAKEN: { code: 'TNT-7005', status: 400, message: '该别名已被其他租户使用' },
  TENANT_NAME_INVALID: { code: 'TNT-7006', status: 400, message: '名称不能为空，且不超过 64 个字符' },
  TENANT_HOME_PAGE_INVALID: { code: 'TNT-7007', status: 400, message: '首页只能选择所有成员都能打开的页面' },
  /** A dictionary group or entry code that does not exist (entries are never added). */
  DICT_NOT_FOUND: { code: 'DICT-7101', status: 404, message: '字典项不存在' },

  // Appended by the desktop sync work (issue 17).
  /**
   * An upload's ifMatch (merge, second upload) or a sync delete's digest no longer matches: someone
   * changed the file (or the folder's tree) since the client listed it. Nothing was changed.
   */
  SYNC_CHANGED: { code: 'SYN-5001', status: 409, message: '文件已在别处被修改，请重新同步' },
  /** A sync call on a folder outside 同步文件 (synced files must live in the synced-files category). */
  SYNC_ROOT_INVALID: { code: 'SYN-5002', status: 400, message: '同步文件夹必须位于同步文件中' },
  // Appended by the organisation work (issue 14). Rules in org-types.ts.
  /** The name and password fit accounts of several tenants: log in through the tenant's /login/{id}. */
  /** 绑定/更换手机号 with a wrong login password: counted like a login failure (same throttle). */
  PASSWORD_WRONG: { code: 'AUTH-1018', status: 400, message: '登录密码错误' },
  /** A signed-in device (session) id the caller does not have: another user's or tenant's, ended, or unknown. */
  SESSION_NOT_FOUND: { code: 'AUTH-1019', status: 404, message: '该登录设备不存在或已退出' },
  LOGIN_TENANT_REQUIRED: { code: 'AUTH-1017', status: 400, message: '该账号存在于多个企业，请通过企业专属登录地址登录' },
  // 手势密码 (issue 38; rules in common/gesture/pattern.ts, calls in endpoints/gesture.ts).
  /** A wrong pattern; the answer's `remaining` says how many tries are left before the session ends. */
  GESTURE_WRONG: { code: 'AUTH-1020', status: 400, message: '手势密码错误' },
  /** Verify without a pattern set (set one in 账号安全). */
  GESTURE_NOT_SET: { code: 'AUTH-1021', status: 400, message: '尚未设置手势密码' },
  /** The tenant's gesture switch is off: no pattern can be set, none is asked. */
  GESTURE_DISABLED: { code: 'AUTH-1022', status: 400, message: '管理员未开启手势密码' },
  /** A pattern the pad could not have drawn, or with fewer than GESTURE_MIN_POINTS dots. */
  GESTURE_INVALID: { code: 'AUTH-1023', status: 400, message: '手势密码至少连接4个点，且每个点只能连接一次' },
  /**
   * The session's 手势密码 lock is up (the client said so, endpoints/gesture.ts `lock`): every call but the
   * lock screen's own is refused until a right pattern; the client shows its lock screen on it.
   */
  GESTURE_LOCKED: { code: 'AUTH-1024', status: 400, message: '请先解锁手势密码' },
  /** 设备密码 (issue 39): the id is not one of the caller's live device passwords (another user's, revoked). */
  DEVICE_PASSWORD_NOT_FOUND: { code: 'AUTH-1041', status: 404, message: '该设备密码不存在或已撤销' },
  /** The name is empty after trimming, too long, or already names one of the caller's live device passwords. */
  DEVICE_PASSWORD_NAME_INVALID: { code: 'AUTH-1042', status: 400, message: '设备名称须为 1-64 个字符，且不能与已有的设备密码重名' },
  /** DEVICE_PASSWORDS_MAX live device passwords already: revoke one first. */
  DEVICE_PASSWORD_LIMIT: { code: 'AUTH-1043', status: 400, message: '设备密码已达上限，请先撤销不用的' },
  DEPT_NOT_FOUND: { code: 'ORG-7001', status: 404, message: '部门不存在' },
  DEPT_NAME_INVALID: { code: 'ORG-7002', status: 400, message: '部门名称不正确' },
  DEPT_NAME_CONFLICT: { code: 'ORG-7003', status: 400, message: '同一上级部门下已存在同名部门' },
  DEPT_MOVE_CYCLE: { code: 'ORG-7004', status: 400, message: '不能将部门移动到其自身或其下级部门中' },
  DEPT_HAS_CHILDREN: { code: 'ORG-7005', status: 400, message: '该部门下还有子部门，无法删除' },
  DEPT_HAS_MEMBERS: { code: 'ORG-7006', status: 400, message: '该部门下还有人员，无法删除' },
  DEPT_UNASSIGNED_FIXED: { code: 'ORG-7007', status: 400, message: '“未分配”部门不能修改、移动、删除或添加子部门' },
  DEPT_LIMIT: { code: 'ORG-7008', status: 400, message: '部门数量已达上限' },
  /** errorMessage carries the exact rule broken (common/org/account.ts). */
  ACCOUNT_INVALID: { code: 'ORG-7011', status: 400, message: '账号格式不正确' },
  ACCOUNT_TAKEN: { code: 'ORG-7012', status: 400, message: '该账号已存在' },
  NICKNAME_INVALID: { code: 'ORG-7013', status: 400, message: '昵称不正确' },
  QUOTA_NOT_ALLOWED: { code: 'ORG-7014', status: 400, message: '配额不在可选范围内' },
  /** errorMessage says how many entries and bytes; hand them over (userTransferFiles) first. */
  USER_HAS_FILES: { code: 'ORG-7015', status: 400, message: '该用户仍有文件，请先将文件转移给其他用户' },
  CANNOT_DELETE_SELF: { code: 'ORG-7016', status: 400, message: '不能删除当前登录的账号' },
  HAND_OVER_SAME_USER: { code: 'ORG-7017', status: 400, message: '不能将文件转移给同一用户' },
  IMPORT_FILE_TOO_LARGE: { code: 'ORG-7021', status: 413, message: '文件超过10MB，请拆分后再导入' },
  /** Not an .xlsx or .csv the server can read (errorMessage may say why). Nothing was imported. */
  IMPORT_FILE_INVALID: { code: 'ORG-7022', status: 400, message: '无法读取该文件，请上传由模板填写的 .xlsx 或 .csv 文件' },
  IMPORT_HEADERS_INVALID: { code: 'ORG-7023', status: 400, message: '表头不正确，请使用下载的模板' },
  IMPORT_EMPTY: { code: 'ORG-7024', status: 400, message: '文件中没有可导入的数据行' },
  IMPORT_TOO_MANY_ROWS: { code: 'ORG-7025', status: 400, message: '单次最多导入20000行，请拆分后再导入' },
  IMPORT_BATCH_NOT_FOUND: { code: 'ORG-7026', status: 404, message: '导入批次不存在或已过期，请重新上传文件' },
  IMPORT_ALREADY_DONE: { code: 'ORG-7027', status: 400, message: '该批次已导入，请勿重复导入' },

  // Appended by the sharing work (issue 15). Rules in sharing.ts.
  /** A share id unknown to the caller (another tenant's, someone else's, never issued). */
  SHARE_NOT_FOUND: { code: 'SHR-8001', status: 404, message: '共享不存在或已取消' },
  /** Only entries the caller may change can be shared (their own, or a space's they may modify). */
  SHARE_NOT_ALLOWED: { code: 'SHR-8002', status: 400, message: '只能分享您有权管理的文件' },
  /** A preview-only share or link: download, ZIP, version download and copying out are refused. */
  SHARE_PREVIEW_ONLY: { code: 'SHR-8003', status: 400, message: '该分享仅允许预览，不能下载' },
  /** The tenant's policy wants an application for this share or link (POST shareApply/submit). */
  SHARE_APPROVAL_REQUIRED: { code: 'SHR-8004', status: 400, message: '该分享需要审批，请提交分享申请' },
  SHARE_TO_SELF: { code: 'SHR-8005', status: 400, message: '不能共享给自己' },
  SHARE_VALIDITY_INVALID: { code: 'SHR-8006', status: 400, message: '有效期不在可选范围内' },
  /** Rename of the shared entry itself, create/move/delete inside a share: the owner's. */
  SHARE_EDIT_LIMITED: { code: 'SHR-8007', status: 400, message: '共享文件只能由所有者新建、移动或删除' },
  LINK_CODE_REQUIRED: { code: 'LNK-8101', status: 400, message: '请设置4位提取码' },
  LINK_CODE_FORMAT: { code: 'LNK-8102', status: 400, message: '提取码为4位字母或数字' },
  /** An unknown token and a wrong code answer exactly this (sharing.ts). */
  LINK_INVALID: { code: 'LNK-8103', status: 400, message: '链接不存在或提取码错误' },
  /** Revoked or expired: the link gives nothing any more. */
  LINK_GONE: { code: 'LNK-8104', status: 400, message: '分享链接已失效' },
  /** Too many wrong codes for this link or from this address: wait (Retry-After, seconds in the text). */
  LINK_TOO_MANY_ATTEMPTS: { code: 'LNK-8105', status: 400, message: '提取码错误次数过多，请稍后再试' },
  /** The visit key is unknown, forged or older than LINK_VISIT_TTL_MS: enter the code again. */
  LINK_VISIT_EXPIRED: { code: 'LNK-8106', status: 400, message: '访问已过期，请重新打开链接' },
  LINK_LIMIT_INVALID: { code: 'LNK-8107', status: 400, message: '下载次数限制不正确' },
  /** A download ticket unknown, expired, or already used for a whole download. */
  LINK_TICKET_INVALID: { code: 'LNK-8108', status: 404, message: '下载地址已失效，请重新下载' },
  /**
   * A ranged request of a ticket that has less left than it asks for (a ticket gives one copy in all,
   * sharing.ts), or any Range on a used ZIP ticket. For a file, Content-Range names its size.
   */
  LINK_TICKET_SPENT: { code: 'LNK-8109', status: 416, message: '该下载地址的内容已下载完，请重新下载' },
  APPLY_NOT_FOUND: { code: 'APL-8201', status: 404, message: '申请不存在' },
  /** Approve, reject or withdraw of an application that is not waiting (any more). */
  APPLY_NOT_PENDING: { code: 'APL-8202', status: 400, message: '该申请已处理、已撤回或已过期' },
  APPLY_SELF_APPROVAL: { code: 'APL-8203', status: 400, message: '不能审批自己的申请' },
  /** Not the approver of the application's current level. */
  APPLY_NOT_APPROVER: { code: 'APL-8204', status: 400, message: '您不是该申请当前的审批人' },
  /** The chosen approver is not one the policy allows for this application. */
  APPLY_APPROVER_INVALID: { code: 'APL-8205', status: 400, message: '所选审批人不能审批该申请' },
  APPLY_NO_APPROVER: { code: 'APL-8206', status: 400, message: '没有可选的审批人，请联系管理员设置审批人' },
  APPLY_REASON_REQUIRED: { code: 'APL-8207', status: 400, message: '请填写申请理由（不超过500字）' },
  APPLY_COMMENT_REQUIRED: { code: 'APL-8208', status: 400, message: '请填写驳回理由（不超过500字）' },
  POLICY_INVALID: { code: 'APL-8209', status: 400, message: '策略设置不正确' },
  EXCHANGE_DISABLED: { code: 'EXC-8301', status: 400, message: '交换区未开启' },
  /** The file came from the other network build and has not passed checkSwap (yet). */
  EXCHANGE_NOT_PASSED: { code: 'EXC-8302', status: 400, message: '该文件尚未通过交换区检查，暂不能在当前网络使用' },
  /** Only exchange-area files (category 3) are checked. */
  EXCHANGE_NOT_IN_AREA: { code: 'EXC-8303', status: 400, message: '只能检查交换区中的文件' },
  /** A flagged (intercepted) file: confirm first (keepOnDownload). */
  DOWNLOAD_CONFIRM_REQUIRED: { code: 'EXC-8304', status: 400, message: '该文件已被拦截，请确认后再下载' },
  // Appended by the notices work (issue 16). Rules in notices.ts.
  /** A notice id unknown to the caller (another tenant's, withdrawn for readers, not addressed to them). */
  NOTICE_NOT_FOUND: { code: 'NTC-9001', status: 404, message: '公告不存在或已撤回' },
  NOTICE_TITLE_INVALID: { code: 'NTC-9002', status: 400, message: '公告标题不能为空，且不超过100个字符' },
  NOTICE_CONTENT_INVALID: { code: 'NTC-9003', status: 400, message: '公告内容不能为空，且不超过200KB' },
  /** Neither the whole tenant nor any department or person; or an unknown one (errorMessage says which). */
  NOTICE_AUDIENCE_INVALID: { code: 'NTC-9004', status: 400, message: '请选择公告的接收范围' },
  /** A scheduled time in the past or more than a year ahead. */
  NOTICE_PUBLISH_AT_INVALID: { code: 'NTC-9005', status: 400, message: '定时发布时间须晚于当前时间，且在一年之内' },
  /** A published notice saved as a draft, a draft withdrawn, a withdrawn one pinned…: errorMessage says what. */
  NOTICE_STATE_INVALID: { code: 'NTC-9006', status: 400, message: '公告当前状态不允许该操作' },
  /** A notice stream for a user who already holds NOTICE_STREAMS_PER_USER of them. */
  NOTICE_STREAM_LIMIT: { code: 'NTC-9007', status: 429, message: '消息连接过多，请关闭部分窗口后重试' },
  // The action log (issue 35).
  /** The chain head's MAC does not hold (moved without the key): no checkpoint is signed for it. */
  AUDIT_HEAD_INVALID: { code: 'AUD-9501', status: 500, message: '操作日志链头校验失败，日志可能已被篡改，请联系管理员运行 audit:verify 核查' },
  // 统计报表 (issue 38).
  REPORT_RANGE_INVALID: { code: 'RPT-9701', status: 400, message: '统计日期范围不正确：开始日期不能晚于结束日期，且跨度不超过 1100 天' },

  // The object store (issue 37).
  /**
   * The store that keeps file bytes (BLOB_STORE) did not answer in time or refused: nothing of this
   * request was acknowledged, nothing acknowledged before is lost; retry later.
   */
  STORE_UNAVAILABLE: { code: 'STO-5031', status: 500, message: '文件存储服务暂时不可用，请稍后重试' },

  INTERNAL: { code: 'SYS-5000', status: 500, message: '服务器内部错误，请稍后重试' },
  /** The database's disk is full (PostgreSQL 53100 disk_full, SQLite SQLITE_FULL): nothing was saved; a 500, so clients retry. */
  DATABASE_FULL: { code: 'SYS-5001', status: 500, message: '服务器数据库存储空间已满，本次操作未保存，请稍后重试或联系管理员' },
} as const satisfies Record<string, { code: string } & ErrorDef>;

export type ErrorKey = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorKey]['code'];

/** HTTP 401 is defined by status alone; the body is informative. */
export const SESSION_TERMINATED_CODE = ERRORS.SESSION_TERMINATED.code;
export const DOWNLOAD_EXCEEDED_CODE = ERRORS.DOWNLOAD_EXCEEDED.code;
/**
 * The 5th wrong 手势密码 in a row: the server ends the session and answers SESSION_TERMINATED with this
 * text, so every client shows the spec §8 '登出' box with it and goes to /login.
 */
export const GESTURE_LOCKOUT_MESSAGE = '手势密码连续输错5次，已退出登录，请使用账号密码重新登录';
