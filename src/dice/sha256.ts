/**
 * SHA-256 (FIPS 180-4 §6.2), written for many hashes of short messages: the state is an
 * Int32Array the caller owns, so a hash can resume from a saved midstate (see
 * hmac-sha256.ts), and compressing a block allocates nothing. Words are kept as signed
 * 32-bit integers (`| 0`), which V8 keeps unboxed; read them back with `>>> 0`.
 */

/** Round constants (§4.2.2): the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Initial hash value (§5.3.3): the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** Bytes per message block. */
export const BLOCK_BYTES = 64;

/** The message schedule, shared: compression never re-enters, and each worker has its own module instance. */
const W = new Int32Array(64);

/** A fresh state holding the initial hash value. */
export function initialState(): Int32Array {
  return IV.slice();
}

/** Resets `state` to the initial hash value. */
export function resetState(state: Int32Array): void {
  state.set(IV);
}

/** Compresses the 64-byte block at `bytes[offset..offset+64)` into `state` (§6.2.2). */
export function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let t = 0; t < 16; t++, offset += 4) {
    W[t] = (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3];
  }
  for (let t = 16; t < 64; t++) {
    const x = W[t - 15];
    const y = W[t - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[t] = (s1 + W[t - 7] + s0 + W[t - 16]) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[t] + W[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/**
 * The last bytes of a message, padded (§5.1.1): `tail` ‖ 0x80 ‖ zeros ‖ u64be(bit length
 * of the whole message), in one or two blocks. `messageBytes` counts every byte hashed,
 * including blocks compressed before the tail (such as an HMAC key block).
 */
export function padTail(tail: Uint8Array, messageBytes: number): Uint8Array {
  const length = Math.ceil((tail.length + 9) / BLOCK_BYTES) * BLOCK_BYTES;
  const out = new Uint8Array(length);
  out.set(tail);
  out[tail.length] = 0x80;
  const bits = messageBytes * 8;
  // Two halves: message lengths here stay far below 2^53 bits, but bit shifts are 32-bit.
  writeU32(out, length - 8, Math.floor(bits / 0x100000000));
  writeU32(out, length - 4, bits >>> 0);
  return out;
}

/** Compresses `bytes[start..end)`, a whole number of blocks, into `state`. */
export function compressBlocks(state: Int32Array, bytes: Uint8Array, start: number, end: number): void {
  for (let o = start; o < end; o += BLOCK_BYTES) compress(state, bytes, o);
}

/** The state as 32 digest bytes, big-endian, into `out` at `offset`. */
export function writeDigest(state: Int32Array, out: Uint8Array, offset = 0): void {
  for (let i = 0; i < 8; i++) writeU32(out, offset + 4 * i, state[i]);
}

/** Byte `i` (0–31) of the digest held in `state`, without writing the digest out. */
export function digestByte(state: Int32Array, i: number): number {
  return (state[i >> 2] >>> (24 - ((i & 3) << 3))) & 0xff;
}

/** SHA-256 of `data`, 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  const state = initialState();
  const whole = data.length - (data.length % BLOCK_BYTES);
  compressBlocks(state, data, 0, whole);
  const last = padTail(data.subarray(whole), data.length);
  compressBlocks(state, last, 0, last.length);
  const digest = new Uint8Array(32);
  writeDigest(state, digest);
  return digest;
}

function writeU32(out: Uint8Array, offset: number, word: number): void {
  out[offset] = word >>> 24;
  out[offset + 1] = word >>> 16;
  out[offset + 2] = word >>> 8;
  out[offset + 3] = word;
}
