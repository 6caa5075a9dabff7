/** `bytes` random bytes from the system's secure generator, as lowercase hex (twice as many digits). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** `bytes` random bytes from the system's secure generator, as URL-safe base64 (secrets, generated passwords). */
export function randomBase64url(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

const randomBytes = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes)));
