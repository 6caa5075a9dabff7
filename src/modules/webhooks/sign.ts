/** The `X-Zapdesk-Signature` value: `sha256=` and the hex HMAC-SHA256 of the raw body with the endpoint's secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${new Bun.CryptoHasher("sha256", secret).update(body).digest("hex")}`;
}
