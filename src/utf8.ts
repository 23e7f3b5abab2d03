// UTF-8 for decoded segments: invalid sequences are an error, never U+FFFD,
// so two different byte strings can never decode to the same JSON text.

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decode UTF-8, or undefined if the bytes are not valid UTF-8. */
export function utf8(bytes: Uint8Array): string | undefined {
  // Short pure-ASCII inputs are cheaper to build by hand than through TextDecoder.
  if (bytes.length <= 64) {
    let s = '';
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b >= 0x80) return decodeSlow(bytes);
      s += String.fromCharCode(b);
    }
    return s;
  }
  return decodeSlow(bytes);
}

function decodeSlow(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
