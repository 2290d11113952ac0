/**
 * Local storage under ONE root key holding obfuscated JSON (spec §4/§9).
 *
 * The obfuscation is NOT security: it only keeps the values from being read or edited casually in
 * the browser's dev tools. Encoding: JSON → UTF-8 bytes → each byte XOR'd with a fixed key → base64.
 * Anyone with the source can decode it; never store secrets here.
 *
 * When the root entry is missing or cannot be decoded, the whole storage is cleared and a fresh,
 * empty root is written (spec §4: "local storage is cleared when the stored root entry is missing").
 */
export const STORAGE_ROOT_KEY = 'cloud-drive';

const XOR_KEY = [0x5a, 0x3c, 0x91, 0x27, 0xe4, 0x0b, 0x7d];

/** The subset of the Web Storage API this module needs (window.localStorage, or a fake in tests). */
export interface StorageBackend {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  clear(): void;
}

type Root = Record<string, unknown>;

function xor(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[i]! ^ XOR_KEY[i % XOR_KEY.length]!;
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function obfuscate(value: unknown): string {
  return toBase64(xor(new TextEncoder().encode(JSON.stringify(value))));
}

/** Throws when `text` is not something `obfuscate` produced. */
export function deobfuscate(text: string): unknown {
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(xor(fromBase64(text)))) as unknown;
}

export interface AppStorage {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  remove(key: string): void;
  /** Clears everything and writes a fresh, empty root. */
  reset(): void;
}

export function createStorage(backend: StorageBackend): AppStorage {
  function writeRoot(root: Root): void {
    backend.setItem(STORAGE_ROOT_KEY, obfuscate(root));
  }

  function reset(): void {
    backend.clear();
    writeRoot({});
  }

  function readRoot(): Root {
    const raw = backend.getItem(STORAGE_ROOT_KEY);
    if (raw !== null) {
      try {
        const root = deobfuscate(raw);
        if (root && typeof root === 'object' && !Array.isArray(root)) return root as Root;
      } catch {
        // corrupt: treated as missing
      }
    }
    reset();
    return {};
  }

  // Checked once when the storage is opened, so a missing root clears stale data right away.
  readRoot();

  return {
    get<T>(key: string): T | undefined {
      return readRoot()[key] as T | undefined;
    },
    set(key, value) {
      const root = readRoot();
      root[key] = value;
      writeRoot(root);
    },
    remove(key) {
      const root = readRoot();
      delete root[key];
      writeRoot(root);
    },
    reset,
  };
}

/** In-memory backend, used when window.localStorage is unavailable (private mode, tests). */
export function memoryBackend(): StorageBackend {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    clear: () => map.clear(),
  };
}

let appStorage: AppStorage | null = null;

/** The app's storage over window.localStorage, opened on first use. */
export function getAppStorage(): AppStorage {
  if (!appStorage) {
    let backend: StorageBackend;
    try {
      backend = window.localStorage;
    } catch {
      backend = memoryBackend();
    }
    appStorage = createStorage(backend);
  }
  return appStorage;
}
