import { crc32, deflateSync } from 'node:zlib';

/**
 * Ramp's icon, answered at GET /favicon.ico: browsers ask for it on every page that names none (the sandbox
 * KYC page, a JSON answer opened in a tab), and a 404 there is noise in a new user's console. Drawn here, a white
 * "R" on a blue square, 32 × 32, as a PNG inside an ICO (which every browser reads), so no binary file is checked in.
 */
const SIZE = 32;
const SCALE = 4;
// The letter on a 5 × 7 grid, scaled 4× to 20 × 28 and centred.
const LETTER = ['11110', '10001', '10001', '11110', '10100', '10010', '10001'];
const BLUE = [0x1f, 0x5e, 0xff, 0xff];
const WHITE = [0xff, 0xff, 0xff, 0xff];

function pixels(): Buffer {
  const left = (SIZE - LETTER[0]!.length * SCALE) / 2;
  const top = (SIZE - LETTER.length * SCALE) / 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y++) {
    const row = [0]; // PNG filter type 0 (none) starts each row
    for (let x = 0; x < SIZE; x++) {
      const on = LETTER[Math.floor((y - top) / SCALE)]?.[Math.floor((x - left) / SCALE)] === '1' && x >= left && y >= top;
      row.push(...(on ? WHITE : BLUE));
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat(rows);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels())), chunk('IEND', Buffer.alloc(0))]);
}

/** An ICO of one image: its 6-byte header, one 16-byte directory entry, then the PNG. */
function ico(image: Buffer): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.set([SIZE, SIZE, 0, 0], 6); // width, height, no palette, reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(22, 18); // where the image starts
  return Buffer.concat([header, image]);
}

export const FAVICON = ico(png());
