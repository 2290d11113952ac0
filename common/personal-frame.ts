/**
 * 个人文件's frame (src/app/personal-frame.tsx, drawn into personal.html by the build) leaves the
 * tenant's brand to the server (server/routes/static-routes.ts), which writes the system config's
 * logo and name over these marks at each request.
 */
export const PERSONAL_FRAME_LOGO = '/__drive-frame-logo__';
export const PERSONAL_FRAME_BRAND = '__drive-frame-brand__';
