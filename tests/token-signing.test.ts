import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { jwt } from "@elysiajs/jwt";
import { createTokens } from "../src/modules/auth/tokens";
import { testConfig } from "./helpers";

type PluginSigner = { sign(payload: Record<string, string | number>): Promise<string> };

const pluginSigner = (secret: string, ttl: number) =>
  (jwt({ name: "t", secret, exp: `${ttl}s` }) as unknown as { decorator: Record<string, PluginSigner> }).decorator.t!;

describe("token signing", () => {
  afterEach(() => setSystemTime());

  test("access and refresh tokens are the bytes @elysiajs/jwt signs for the same claims at the same second", async () => {
    const config = testConfig({ accessTokenTtl: 60, refreshTokenTtl: 3600 });
    const tokens = createTokens(config);
    setSystemTime(new Date("2026-03-04T05:06:07.890Z"));
    const user = { id: 7, profile: "admin", tokenVersion: 3 };
    expect(await tokens.signAccess(user, 12)).toBe(
      await pluginSigner(config.jwtSecret, 60).sign({ sub: "7", profile: "admin", tv: 3, typ: "access", fam: 12 }),
    );
    expect(await tokens.signRefresh(user, { id: 12, generation: 2 })).toBe(
      await pluginSigner(config.jwtRefreshSecret, 3600).sign({ sub: "7", tv: 3, typ: "refresh", fam: 12, gen: 2 }),
    );
  });
});
