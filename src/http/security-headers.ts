/**
 * The browser-side rules of every answer. Scripts come only from our own origin (the boot data is a
 * `type="application/json"` script, which is data and never runs); styles also allow inline `style` attributes,
 * which server-rendered islands use for queue and tag colours and chart bars; images also come from
 * WhatsApp's picture CDN.
 * Pages may not be framed by anyone.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://*.whatsapp.net",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};
