import { describe, expect, test } from "bun:test";
import { createHash, createHmac } from "node:crypto";
import { validSignature } from "../src/channels/cloud/payload";
import { signPath } from "../src/http/signed-links";
import { signBody } from "../src/modules/webhooks/sign";
import { TestClock } from "./helpers";

/** The signatures as node:crypto made them before: outside parties and stored links depend on these bytes. */
describe("signatures stay byte for byte what they were", () => {
  const body = JSON.stringify({ event: "message.created", text: "olá 👋" });

  test("a webhook's X-Zapdesk-Signature is the hex HMAC-SHA256 of the body", () => {
    expect(signBody("whsec_x", body)).toBe(`sha256=${createHmac("sha256", "whsec_x").update(body).digest("hex")}`);
  });

  test("a Cloud API body signed with the app secret passes, any other signature does not", () => {
    const raw = new TextEncoder().encode(body);
    const hex = createHmac("sha256", "app-secret").update(raw).digest("hex");
    expect(validSignature(raw, `sha256=${hex}`, "app-secret")).toBe(true);
    expect(validSignature(raw, `sha256=${hex.toUpperCase()}`, "app-secret")).toBe(true);
    expect(validSignature(raw, `sha256=${hex.slice(0, -2)}00`, "app-secret")).toBe(false);
    expect(validSignature(raw, `sha256=${hex.slice(0, -2)}`, "app-secret")).toBe(false);
    expect(validSignature(raw, `sha256=${hex}`, "other-secret")).toBe(false);
  });

  test("a signed link's signature is the HMAC of path and expiry with a key derived from the token secret", () => {
    const clock = new TestClock(1_700_000_000_000);
    const link = signPath({ config: { jwtSecret: "s3cret" }, clock }, "/api/media/7", 3600);
    const expires = 1_700_000_000 + 3600;
    const key = createHmac("sha256", "s3cret").update("zapdesk signed links").digest();
    const signature = createHmac("sha256", key).update(`/api/media/7\n${expires}`).digest("base64url");
    expect(link).toBe(`/api/media/7?expires=${expires}&signature=${signature}`);
  });

  test("Bun's SHA-256 of a text is node:crypto's", () => {
    const text = "token-çã-👋";
    expect(Buffer.from(Bun.CryptoHasher.hash("sha256", text) as Uint8Array).toString("hex")).toBe(
      createHash("sha256").update(text).digest("hex"),
    );
  });
});
