// UTF-8 for decoded segments: invalid sequences are an error, never U+FFFD,
// so two different byte strings can never decode to the same JSON text.

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

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

// A fatal TextDecoder costs about 2.4x a lenient one (workerd, 450 bytes). Invalid input
// always yields at least one U+FFFD from the lenient decoder, so a result without one is
// exact; only then is the fatal decoder asked (to tell a genuine U+FFFD from an error).
function decodeSlow(bytes: Uint8Array): string | undefined {
  const text = lenient.decode(bytes);
  if (text.indexOf('\uFFFD') === -1) return text;
  try {
    return fatal.decode(bytes);
  } catch {
    return undefined;
  }
}
