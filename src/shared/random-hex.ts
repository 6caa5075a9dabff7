/** `bytes` random bytes from the system's secure generator, as lowercase hex (twice as many digits). */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}
