// @engine once
import { describe, expect, test } from "bun:test";
import { getSetting } from "../src/modules/settings/service";
import { BASE, call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";

const ODD_BODIES: unknown[] = [
  {},
  [],
  "text",
  42,
  null,
  {
    id: "x",
    name: 5,
    email: [],
    password: {},
    body: null,
    value: { a: 1 },
    status: "weird",
    userId: "me",
    queueIds: "1",
    tags: "x",
  },
  { name: "x".repeat(200_000), body: "y".repeat(200_000), message: "z".repeat(200_000) },
  [{ phone: "abc", message: null, whatsappId: "1" }],
];
const ODD_IDS = ["1", "abc", "-1", "0", "99999999", "1e309", "%00", "1.5"];
const HUGE = "1e400";
/** Bodies JSON.stringify can't produce: deep nesting, numbers past any range, dates past the calendar's end. */
const RAW_BODIES = [
  `${"[".repeat(20_000)}${"]".repeat(20_000)}`,
  `{"name":${'{"a":'.repeat(40)}1${"}".repeat(40)},"email":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
  `{"id":${HUGE},"userId":-${HUGE},"contactId":123456789012345678901234567890,"queueIds":[${HUGE}],"whatsappId":9007199254740993,"ticketId":${HUGE},"tags":[{"id":${HUGE}}],"limit":${HUGE},"minutes":-${HUGE},"seconds":${HUGE},"status":"open"}`,
  `{"sendAt":"+275760-09-13T00:00:00Z","date":"+275760-09-13","updatedAt":"-271821-04-19","body":"hello there","contactId":1}`,
];
const ODD_QUERIES = [
  "?pageNumber=-1&searchParam=%25_&queueIds=[x&tags=nope&showAll=maybe&date=never",
  `?date=%2B275760-09-13&updatedAt=-271821-04-19&pageNumber=${HUGE}&contactId=99999999999999999999&userId=1e309&queueIds=${HUGE}&tags=9007199254740993`,
  "?date=9999-99-99&updatedAt=2101-01-01&pageNumber=9007199254740993",
];

async function callRaw(
  ctx: Awaited<ReturnType<typeof makeTestApp>>,
  method: string,
  path: string,
  token: string,
  body: string,
) {
  const res = await ctx.app.handle(
    new Request(BASE + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    }),
  );
  return { status: res.status, text: await res.text() };
}

describe("no input of any shape gets a 500", () => {
  test("every API route answers odd bodies, ids and queries (deep nesting, huge numbers, out-of-range dates) with a 4xx or a success", async () => {
    const ctx = await makeTestApp();
    const { token: session } = await loginAs(ctx, { profile: "admin" });
    await createSandboxConnection(ctx);
    // The external API is authorised by the API token instead of a session.
    const tokenFor = async (path: string) =>
      path === "/api/messages/send" ? await getSetting(ctx.db, "userApiToken") : session;
    // Logging out would revoke the token the rest of the run uses.
    const loggingOut = ["/api/auth/logout", "/api/auth/logout-all"];
    const routes = ctx.app.routes.filter(
      (r) => r.path.startsWith("/api/") && r.method !== "WS" && !loggingOut.includes(r.path),
    );
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const statuses = new Set<number>();
    for (const route of routes) {
      const paths = route.path.includes(":") ? ODD_IDS.map((id) => route.path.replace(/:[^/]+/g, id)) : [route.path];
      for (const path of paths) {
        const token = await tokenFor(path);
        const bodies = route.method === "GET" || route.method === "DELETE" ? [undefined] : ODD_BODIES;
        for (const query of route.method === "GET" ? ODD_QUERIES : [""]) {
          for (const body of bodies) {
            const res = await call(ctx.app, route.method, path + query, { token, body });
            if (!path.startsWith("/api/auth/")) statuses.add(res.status);
            if (res.status >= 500)
              failures.push(
                `${route.method} ${path}${query} ${JSON.stringify(body)?.slice(0, 60)} → ${res.status} ${JSON.stringify(res.json)}`,
              );
          }
        }
        if (route.method === "GET") continue;
        for (const body of RAW_BODIES) {
          const res = await callRaw(ctx, route.method, path, token, body);
          if (!path.startsWith("/api/auth/")) statuses.add(res.status);
          if (res.status >= 500)
            failures.push(`${route.method} ${path} ${body.slice(0, 60)} → ${res.status} ${res.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The signed-in admin stayed signed in, so every answer above really went past authentication.
    expect(statuses.has(401)).toBe(false);
  }, 60_000);
});
