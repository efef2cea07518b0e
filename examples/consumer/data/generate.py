#!/usr/bin/env python3
"""Writes the consumer's input and the checksum it must print, without Tegula.

weights.npy: f32[16,256], row-major (C order), little endian; element (i, j) = ((i*256 + j) * 37 % 1001) / 8 - 60.
expected-crc32.txt: the CRC-32 of the same array laid out as f32[16,256]{1,0:T(8,128)}.

The tiled order comes from XLA's definition of T(8,128) on a {1,0} layout (docs/shapes-and-layouts.md):
the 16x256 array is cut into 8x128 tiles; the tiles are stored one after another in row-major order
of the 2x2 tile grid, and the elements of each tile in row-major order inside the tile. 16 and 256 are
multiples of 8 and 128, so there is no padding: the tiled buffer holds the same 16384 bytes, reordered.
"""
import pathlib
import zlib

import numpy as np

here = pathlib.Path(__file__).resolve().parent
n = np.arange(16 * 256, dtype=np.int64)
a = ((n * 37 % 1001) / 8.0 - 60.0).astype('<f4').reshape(16, 256)
np.save(here / 'weights.npy', a)

tiled = a.reshape(2, 8, 2, 128).transpose(0, 2, 1, 3)   # (tile row, tile column, row in tile, column in tile)
crc = zlib.crc32(np.ascontiguousarray(tiled).tobytes()) & 0xFFFFFFFF
(here / 'expected-crc32.txt').write_text('%08x\n' % crc)
print('weights.npy written; f32[16,256]{1,0:T(8,128)} crc32 %08x' % crc)
