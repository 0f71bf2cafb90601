import { BLOCK_BYTES, compress, compressBlocks, initialState, padTail, sha256, writeDigest } from './sha256.js';

/**
 * HMAC-SHA256 (RFC 2104) with the per-key work done once: a key's padded inner and outer
 * blocks are compressed when the key is made, so a MAC of a short message costs only the
 * message's own blocks plus one outer block.
 */

const IPAD = 0x36;
const OPAD = 0x5c;

/** A key, held as the SHA-256 states after its inner (key ⊕ ipad) and outer (key ⊕ opad) blocks. */
export class HmacSha256Key {
  readonly inner: Int32Array;
  readonly outer: Int32Array;
  constructor(key: Uint8Array) {
    // Keys longer than a block are hashed first; shorter ones are zero-padded.
    const k = key.length > BLOCK_BYTES ? sha256(key) : key;
    const block = new Uint8Array(BLOCK_BYTES);
    this.inner = padState(block, k, IPAD);
    this.outer = padState(block, k, OPAD);
  }
}

function padState(block: Uint8Array, key: Uint8Array, pad: number): Int32Array {
  block.fill(pad);
  for (let i = 0; i < key.length; i++) block[i] = key[i] ^ pad;
  const state = initialState();
  compress(state, block, 0);
  return state;
}

/**
 * MACs of messages that share a constant prefix and one length, such as the fair-dice
 * message whose only variable bytes (ply, block) sit at its end. The prefix's whole
 * blocks are compressed once; the rest of the message is kept in `tail`, already padded,
 * where the caller writes the variable bytes from `variableOffset` before each `mac()`.
 */
export class PrefixedHmac {
  /** The message's last block(s) with SHA-256 padding; bytes from `variableOffset` are the caller's. */
  readonly tail: Uint8Array;
  readonly variableOffset: number;
  /** The last MAC as 8 big-endian words (read bytes with digestByte); overwritten by the next `mac()`. */
  readonly digest = new Int32Array(8);
  private readonly prefixState: Int32Array;
  private readonly outerState: Int32Array;
  /** The outer hash's only block after the key: inner digest ‖ padding. */
  private readonly outerBlock: Uint8Array;

  constructor(key: HmacSha256Key, prefix: Uint8Array, variableLength: number) {
    const length = prefix.length + variableLength;
    const whole = prefix.length - (prefix.length % BLOCK_BYTES);
    this.prefixState = key.inner.slice();
    compressBlocks(this.prefixState, prefix, 0, whole);
    const rest = new Uint8Array(length - whole);
    rest.set(prefix.subarray(whole));
    this.tail = padTail(rest, BLOCK_BYTES + length);
    this.variableOffset = prefix.length - whole;
    this.outerState = key.outer;
    this.outerBlock = padTail(new Uint8Array(32), BLOCK_BYTES + 32);
  }

  /** HMAC of prefix ‖ the variable bytes now in `tail`; returns `digest`. */
  mac(): Int32Array {
    const d = this.digest;
    d.set(this.prefixState);
    compressBlocks(d, this.tail, 0, this.tail.length);
    writeDigest(d, this.outerBlock);
    d.set(this.outerState);
    compress(d, this.outerBlock, 0);
    return d;
  }
}

/** HMAC-SHA256 of `message` under `key`, 32 bytes (one-off; hold a PrefixedHmac to MAC many messages). */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const mac = new PrefixedHmac(new HmacSha256Key(key), message, 0).mac();
  const out = new Uint8Array(32);
  writeDigest(mac, out);
  return out;
}
