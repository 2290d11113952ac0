/** The loading screen's look, shared with the copy of it in index.html (keep the two alike). */
export const BOOT_LOADING_STYLE = {
  minHeight: '100vh',
  display: 'flex',
  flexDirection: 'column',
  gap: 12,
  alignItems: 'center',
  justifyContent: 'center',
  color: 'rgba(0, 0, 0, 0.62)',
  fontSize: 14,
  fontFamily: 'system-ui, sans-serif',
} as const;

export const BOOT_SPINNER_STYLE = {
  width: 32,
  height: 32,
  boxSizing: 'border-box',
  border: '3px solid #d6e4ff',
  borderTopColor: '#0958d9',
  borderRadius: '50%',
  animation: 'drive-spin 0.8s linear infinite',
} as const;

export const BOOT_SPIN_KEYFRAMES = '@keyframes drive-spin{to{transform:rotate(360deg)}}';
