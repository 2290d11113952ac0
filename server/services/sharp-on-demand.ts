import type Sharp from 'sharp';

/**
 * sharp (with libvips, ~9 MB of a server's resident memory) loaded at its first use: thumbnails,
 * watermarked previews and a tenant's pictures need it, most requests never do. Every use goes through
 * here, so the loaders are restricted before any picture is decoded.
 */
let loading: Promise<typeof Sharp> | undefined;

/** The libvips loaders of the raster formats pictureFormatOf accepts; no other loader runs in this process. */
const ALLOWED_LOADERS = ['VipsForeignLoadJpeg', 'VipsForeignLoadPng', 'VipsForeignLoadNsgif', 'VipsForeignLoadWebp', 'VipsForeignLoadTiff', 'VipsForeignLoadHeif'];

/**
 * sharp, with every libvips loader but the raster ones blocked for the whole process (sharp.block):
 * defence in depth behind the magic-byte check, so nothing here can rasterise SVG (or PDF, or a text
 * format) even if a check upstream were bypassed.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((m: { default?: typeof Sharp }) => {
    const sharp = m.default ?? (m as unknown as typeof Sharp);
    sharp.block({ operation: ['VipsForeignLoad'] });
    sharp.unblock({ operation: ALLOWED_LOADERS });
    return sharp;
  });
  return loading;
}
