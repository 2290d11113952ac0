import type { FastifyRequest } from 'fastify';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM, type NetworkEnv } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { AppError } from './app-error';

/** The network the client says it is built for; anything but 'public' counts as internal. */
export function claimedNetworkEnv(request: FastifyRequest): NetworkEnv {
  return request.headers[HEADER_NETWORK_ENV.toLowerCase()] === 'public' ? 'public' : 'internal';
}

/**
 * keepOnUpload, giveUpUpload and sms/send are GETs because the spec says so, yet they change state. A
 * cross-site page can make a browser send a GET with our cookie (an <img> or a link) but cannot add a
 * custom header without a CORS preflight, which this server never grants. Requiring X-Client-Platform
 * (sent by our clients on every call) therefore makes these GETs as safe as our Origin-checked POSTs.
 */
export function requirePlatformHeader(request: FastifyRequest): void {
  const value = request.headers[HEADER_PLATFORM.toLowerCase()];
  if (value !== 'web' && value !== 'desktop') throw new AppError(ERRORS.PLATFORM_HEADER_REQUIRED);
}
