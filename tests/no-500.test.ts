import { describe, expect, test } from "bun:test";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

const ODD_BODIES: unknown[] = [
  {},
  [],
  "text",
  42,
  null,
  { id: "x", name: 5, email: [], password: {}, body: null, value: { a: 1 }, status: "weird", userId: "me", queueIds: "1", tags: "x" },
  { name: "x".repeat(200_000), body: "y".repeat(200_000), message: "z".repeat(200_000) },
  [{ phone: "abc", message: null, whatsappId: "1" }],
];
const ODD_IDS = ["1", "abc", "-1", "0", "99999999", "1e309", "%00", "1.5"];

describe("no input of any shape gets a 500", () => {
  test("every API route answers odd bodies, ids and queries with a 4xx or a success", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    await createSandboxConnection(ctx);
    // Logging out would revoke the token the rest of the run uses.
    const routes = ctx.app.routes.filter((r) => r.path.startsWith("/api/") && r.method !== "WS" && r.path !== "/api/auth/logout");
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const statuses = new Set<number>();
    for (const route of routes) {
      const paths = route.path.includes(":") ? ODD_IDS.map((id) => route.path.replace(/:[^/]+/g, id)) : [route.path];
      for (const path of paths) {
        const bodies = route.method === "GET" || route.method === "DELETE" ? [undefined] : ODD_BODIES;
        for (const body of bodies) {
          const query = route.method === "GET" ? "?pageNumber=-1&searchParam=%25_&queueIds=[x&tags=nope&showAll=maybe&date=never" : "";
          const res = await call(ctx.app, route.method, path + query, { token, body });
          if (!path.startsWith("/api/auth/")) statuses.add(res.status);
          if (res.status >= 500) failures.push(`${route.method} ${path} ${JSON.stringify(body)?.slice(0, 60)} → ${res.status} ${JSON.stringify(res.json)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The signed-in admin stayed signed in, so every answer above really went past authentication.
    expect(statuses.has(401)).toBe(false);
  }, 60_000);
});
