import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { createTokens } from "../src/modules/auth/tokens";
import { testConfig } from "./helpers";

const user = { id: 7, profile: "user", tokenVersion: 3 };

describe("remembered access tokens", () => {
  afterEach(() => setSystemTime());

  test("a token checked once is still refused once it expired, and a tampered copy is never taken for it", async () => {
    const tokens = createTokens(testConfig({ accessTokenTtl: 60 }));
    const start = Date.now();
    setSystemTime(new Date(start));
    const token = await tokens.signAccess(user);
    expect(await tokens.verifyAccess(token)).toMatchObject({ status: "ok", userId: 7, tokenVersion: 3 });
    expect(await tokens.verifyAccess(token)).toMatchObject({ status: "ok", userId: 7 });
    const [head, payload, signature] = token.split(".");
    const tampered = `${head}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    expect(await tokens.verifyAccess(tampered)).toEqual({ status: "invalid" });
    setSystemTime(new Date(start + 61_000));
    expect(await tokens.verifyAccess(token)).toEqual({ status: "expired" });
  });
});
