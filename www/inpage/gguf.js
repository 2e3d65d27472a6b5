// Reads a GGUF file's header before wllama sees it: is it GGUF at all, is it complete (its
// tensors end where the file ends), how long a context it was trained for, and will it fit
// in this device's memory. It reads only the part of the GGUF header these checks need.

import { mb } from './models.js';
const gb = (n) => `${(n / 1e9).toFixed(1)} GB`;

// Bytes per block and values per block of each ggml tensor type, by type number.
const BLOCKS = {
  0: [4, 1], 1: [2, 1], 2: [18, 32], 3: [20, 32], 6: [22, 32], 7: [24, 32], 8: [34, 32],
  9: [36, 32], 10: [84, 256], 11: [110, 256], 12: [144, 256], 13: [176, 256], 14: [210, 256],
  15: [292, 256], 16: [66, 256], 17: [74, 256], 18: [98, 256], 19: [50, 256], 20: [18, 32],
  21: [110, 256], 22: [82, 256], 23: [136, 256], 24: [1, 1], 25: [2, 1], 26: [4, 1],
  27: [8, 1], 28: [8, 1], 29: [56, 256], 30: [2, 1],
};

class Short extends Error {}

function reader(buf) {
  const v = new DataView(buf);
  let p = 0;
  const need = (n) => { if (p + n > v.byteLength) throw new Short(); };
  const r = {
    get pos() { return p; },
    u8: () => { need(1); return v.getUint8(p++); },
    u32: () => { need(4); const x = v.getUint32(p, true); p += 4; return x; },
    u64: () => { need(8); const x = Number(v.getBigUint64(p, true)); p += 8; return x; },
    skip: (n) => { need(n); p += n; },
    str: () => { const n = r.u64(); need(n); const s = new TextDecoder().decode(new Uint8Array(buf, p, n)); p += n; return s; },
  };
  return r;
}

const SIZES = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

function value(r, type) {
  if (type === 8) return r.str();
  if (type === 9) {
    const t = r.u32(), n = r.u64();
    if (SIZES[t]) r.skip(SIZES[t] * n);
    else for (let i = 0; i < n; i++) value(r, t);
    return undefined;
  }
  if (type === 4) return r.u32();
  if (type === 10) return r.u64();
  if (!SIZES[type]) throw new Error('bad type');
  r.skip(SIZES[type]);
  return undefined;
}

function parse(buf) {
  const r = reader(buf);
  r.skip(4);
  const version = r.u32();
  const tensors = r.u64(), kvs = r.u64();
  const meta = {};
  for (let i = 0; i < kvs; i++) {
    const key = r.str();
    meta[key] = value(r, r.u32());
  }
  let end = 0;
  for (let i = 0; i < tensors; i++) {
    r.str();
    const dims = r.u32();
    let count = 1;
    for (let d = 0; d < dims; d++) count *= r.u64();
    const [bytes, per] = BLOCKS[r.u32()] || [0, 1];
    end = Math.max(end, r.u64() + Math.ceil(count / per) * bytes);
  }
  const align = meta['general.alignment'] || 32;
  const start = Math.ceil(r.pos / align) * align;
  const arch = meta['general.architecture'];
  return { version, size: start + end, contextLength: meta[`${arch}.context_length`] || 0 };
}

// What memory a model of `bytes` needs, against what navigator.deviceMemory reports (a
// rough figure: Chrome rounds it and never says more than 8).
export function tooLarge(bytes, memoryGb) {
  const need = bytes * 1.15 + 64e6;
  if (need > 16e9) return { refuse: true, message: `This model needs about ${gb(need)} of memory, more than a browser tab can hold. Pick a smaller (more quantized) model.` };
  if (!memoryGb) return null;
  const has = memoryGb * 1.073741824e9;
  if (memoryGb < 8 && need > has) return { refuse: true, message: `This model needs about ${gb(need)} of memory, more than this device has (it reports ${memoryGb} GB). Pick a smaller (more quantized) model.` };
  if (need > has / 2) return { message: `This model needs about ${gb(need)} of memory, more than half of what this device reports (${memoryGb} GB): the tab may run out of memory.` };
  return null;
}

export async function inspect(file, name, memoryGb) {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (String.fromCharCode(...head) !== 'GGUF') {
    throw new Error(`"${name}" is not a GGUF model file (it does not begin with "GGUF"). Pick a .gguf file, such as one from Hugging Face.`);
  }
  const big = tooLarge(file.size, memoryGb);
  if (big?.refuse) throw new Error(big.message);
  for (let n = 4e6; ; n *= 4) {
    try {
      const h = parse(await file.slice(0, n).arrayBuffer());
      if (file.size < h.size) {
        throw new Error(`"${name}" is truncated: ${(h.size - file.size).toLocaleString('en')} bytes of the ${mb(h.size)} its header describes are missing. Download it again.`);
      }
      return { contextLength: h.contextLength, warning: big?.message || '' };
    } catch (err) {
      if (!(err instanceof Short)) throw err.message === 'bad type' ? new Error(`"${name}" is a damaged GGUF file (its header cannot be read).`) : err;
      if (n >= file.size) throw new Error(`"${name}" is truncated: it ends inside its own header. Download it again.`);
    }
  }
}
