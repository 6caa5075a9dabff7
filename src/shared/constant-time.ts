/**
 * Whether two byte strings are equal, taking the same time whatever bytes differ (a secret or signature is never
 * learnt byte by byte). Strings are compared as their UTF-8 bytes. Different lengths are unequal at once: compare
 * digests (equal length by construction) where a length must not leak either.
 */
export function sameBytes(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const x = typeof a === "string" ? Buffer.from(a) : a;
  const y = typeof b === "string" ? Buffer.from(b) : b;
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
