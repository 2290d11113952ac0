/**
 * A User-Agent in words for the signed-in device list (账号安全): the kind of device and the browser,
 * e.g. { device: 'Windows 电脑', browser: 'Chrome 120' }. Only what a person needs to recognise their
 * own devices; ordered checks because every engine claims to be the ones before it (Edge says Chrome
 * and Safari, Chrome says Safari). No package: bowser or ua-parser-js would do this more thoroughly,
 * but neither is installed and a dozen patterns cover the clients our users have.
 */
export interface DeviceDescription {
  device: string;
  browser: string;
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  // Our desktop client (Electron) first: it also says Chrome.
  [/\bElectron\/[\d.]+/, '企业云盘桌面客户端'],
  [/\bMicroMessenger\/(\d+)/, '微信'],
  [/\bDingTalk\/(\d+)/, '钉钉'],
  [/\bEdgA?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bQQBrowser\/(\d+)/, 'QQ浏览器'],
  [/\bUCBrowser\/(\d+)/, 'UC浏览器'],
  [/\b360SE\b/, '360浏览器'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\b(?:HeadlessChrome|Chrome|Chromium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const DEVICES: ReadonlyArray<[RegExp, string]> = [
  [/\biPad\b/, 'iPad'],
  [/\biPhone\b/, 'iPhone'],
  [/\bHarmonyOS\b|\bOpenHarmony\b/, '鸿蒙设备'],
  [/\bAndroid\b.*\bMobile\b/, 'Android 手机'],
  [/\bAndroid\b/, 'Android 平板'],
  [/\bWindows\b/, 'Windows 电脑'],
  [/\bMacintosh\b|\bMac OS X\b/, 'Mac 电脑'],
  [/\bCrOS\b/, 'Chromebook'],
  [/\bLinux\b/, 'Linux 电脑'],
];

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const ua = userAgent ?? '';
  const device = DEVICES.find(([re]) => re.test(ua))?.[1] ?? '未知设备';
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (!m) continue;
    const version = m[1];
    return { device, browser: version && name !== '企业云盘桌面客户端' ? `${name} ${version}` : name };
  }
  return { device, browser: '' };
}
