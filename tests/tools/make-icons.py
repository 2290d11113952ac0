"""Writes public/icons/icon-192.png and icon-512.png: a blue rounded square with a white cloud
(same design as public/favicon.svg), and icon-maskable-512.png: the cloud on a full-bleed blue square,
within the central 80 % safe zone that launchers may crop to any shape. Pure standard library
(zlib); run once, the PNGs are committed."""
import math, os, struct, zlib

BLUE = (0x16, 0x77, 0xFF)
WHITE = (0xFF, 0xFF, 0xFF)

def inside_cloud(x, y):
    # Coordinates in the 64x64 design space of favicon.svg.
    circles = [(24.5, 36.0, 8.0), (33.5, 30.5, 11.5), (44.0, 34.5, 9.5)]
    if any((x - cx) ** 2 + (y - cy) ** 2 <= r * r for cx, cy, r in circles):
        return True
    return 20.0 <= x <= 48.0 and 34.0 <= y <= 44.0

def inside_rounded(x, y, size=64.0, r=14.0):
    cx = min(max(x, r), size - r)
    cy = min(max(y, r), size - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r

def pixel(px, py, n, maskable=False):
    # 4x4 supersampling for smooth edges.
    acc = [0.0, 0.0, 0.0, 0.0]
    for sx in range(4):
        for sy in range(4):
            x = (px + (sx + 0.5) / 4) * 64.0 / n
            y = (py + (sy + 0.5) / 4) * 64.0 / n
            if maskable:
                # Full bleed; the cloud drawn at 70 % around the centre stays inside the safe zone.
                x = 32.0 + (x - 32.0) / 0.7
                y = 32.0 + (y - 32.0) / 0.7
            elif not inside_rounded(x, y):
                continue
            c = WHITE if inside_cloud(x, y) else BLUE
            acc[0] += c[0]; acc[1] += c[1]; acc[2] += c[2]; acc[3] += 255
    a = acc[3] / 16
    if a == 0:
        return (0, 0, 0, 0)
    return (round(acc[0] / (acc[3] / 255)), round(acc[1] / (acc[3] / 255)), round(acc[2] / (acc[3] / 255)), round(a))

def png(n, maskable=False):
    rows = bytearray()
    for py in range(n):
        rows.append(0)
        for px in range(n):
            rows.extend(pixel(px, py, n, maskable))
    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xFFFFFFFF)
    ihdr = struct.pack('>IIBBBBB', n, n, 8, 6, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(bytes(rows), 9)) + chunk(b'IEND', b'')

out = os.path.join(os.path.dirname(__file__), '..', '..', 'public', 'icons')
os.makedirs(out, exist_ok=True)
for n in (192, 512):
    with open(os.path.join(out, f'icon-{n}.png'), 'wb') as f:
        f.write(png(n))
    print('wrote', n)
with open(os.path.join(out, 'icon-maskable-512.png'), 'wb') as f:
    f.write(png(512, maskable=True))
print('wrote maskable 512')
