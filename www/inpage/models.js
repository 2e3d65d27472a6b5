// The models kept in this browser: one file each in the Origin Private File System, named
// by a short hash of the address it came from, then its own file name.
export const mb = (n) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;

export const dir = async () =>
  (await navigator.storage.getDirectory()).getDirectoryHandle('agora-models', { create: true });

export async function keyFor(url) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url));
  const hex = [...new Uint8Array(digest).slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const base = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'model.gguf').replace(/[^\w.-]/g, '_');
  return `${hex}-${base}`;
}

export const nameOf = (key) => key.slice(13);

export async function cachedFile(key) {
  try {
    return await (await (await dir()).getFileHandle(key)).getFile();
  } catch {
    return null;
  }
}

/// [{key, name, bytes, label}], leaving out downloads in progress.
export async function list() {
  const out = [];
  for await (const [key, h] of (await dir()).entries()) {
    if (h.kind !== 'file' || key.endsWith('.part')) continue;
    const bytes = (await h.getFile()).size;
    out.push({ key, name: nameOf(key), bytes, label: `${nameOf(key)} · ${mb(bytes)}` });
  }
  return out;
}

export const remove = async (key) => (await dir()).removeEntry(key);
