// @engine once
import { describe, expect, test } from "bun:test";
import type { App } from "../src/app";
import {
  type ApiRoute,
  type ApiRoutes,
  type RouteBody,
  type RouteParams,
  routeTarget,
} from "../src/shared/contracts/routes";
import type { Same } from "../src/shared/same-type";
import { call, loginAs, makeTestApp } from "./helpers";

type ServerRoutes = App["~Routes"]["api"];
type Segments<P> = P extends `/${infer Head}/${infer Rest}`
  ? [Head, ...Segments<`/${Rest}`>]
  : P extends `/${infer Last}`
    ? [Last]
    : [];
type At<T, S> = S extends [infer Head, ...infer Rest] ? (Head extends keyof T ? At<T[Head], Rest> : never) : T;
/** The server's own route for a contract key: its body, query and answers by status, as Elysia infers them. */
type ServerRoute<R> = R extends `${infer Method} ${infer Path}`
  ? At<ServerRoutes, [...Segments<Path>, Lowercase<Method>]>
  : never;

/**
 * Bodies checked by their model's schemaOf alone: the server reads the message body by hand (JSON or multipart,
 * see readPanelMessage), and Elysia's route types lose the chatbot tree's recursion (nested options read as never[]).
 */
type CheckedElsewhere = "POST /messages/:id" | "POST /queue" | "PUT /queue/:id";

type BodyAgrees<R extends ApiRoute> = R extends CheckedElsewhere
  ? true
  : ApiRoutes[R] extends { body: infer B }
    ? Same<ServerRoute<R>["body"], B>
    : Record<never, never> extends ServerRoute<R>["body"]
      ? true
      : false;
type QueryAgrees<R extends ApiRoute> = ApiRoutes[R] extends { query: infer Q }
  ? Same<ServerRoute<R>["query"], Q>
  : true;
type AnswerAgrees<R extends ApiRoute> = ServerRoute<R>["response"][200] extends ApiRoutes[R]["answer"] ? true : false;

type Drift = {
  [R in ApiRoute]: [ServerRoute<R>] extends [never]
    ? `${R}: no such server route`
    : BodyAgrees<R> extends true
      ? QueryAgrees<R> extends true
        ? AnswerAgrees<R> extends true
          ? never
          : `${R}: answer`
        : `${R}: query`
      : `${R}: body`;
}[ApiRoute];

type RequiredKeys<B> = { [K in keyof B]-?: Record<never, never> extends Pick<B, K> ? never : K }[keyof B];
/** Routes whose body is one object with a field it cannot do without. */
type WithRequiredField = {
  [R in ApiRoute]: RouteBody<R> extends readonly unknown[] | FormData | undefined
    ? never
    : [RequiredKeys<RouteBody<R>>] extends [never]
      ? never
      : R;
}[ApiRoute];
/** A body of the route without one of its required fields. */
type Missing<R extends WithRequiredField> = {
  [K in RequiredKeys<RouteBody<R>>]: { params: RouteParams<R>; missing: K; rest: Omit<RouteBody<R>, K> };
}[RequiredKeys<RouteBody<R>>];

/** One case per route with a required field: the contract names the field, the server must ask for it. */
const MISSING: { [R in WithRequiredField]: Missing<R> } = {
  "POST /auth/login": { params: {}, missing: "password", rest: { email: "admin@example.com" } },
  "POST /auth/signup": { params: {}, missing: "email", rest: { name: "Ana", password: "secret1" } },
  "POST /contact": { params: {}, missing: "number", rest: { name: "Ana" } },
  "POST /contacts": { params: {}, missing: "name", rest: { number: "5511988887777" } },
  "POST /queue": { params: {}, missing: "color", rest: { name: "Sales" } },
  "POST /quickAnswers": { params: {}, missing: "message", rest: { shortcut: "hi" } },
  "POST /sandbox/:whatsappId/inbound": { params: { whatsappId: 1 }, missing: "from", rest: { body: "hello" } },
  "POST /sandbox/:whatsappId/read": { params: { whatsappId: 1 }, missing: "to", rest: {} },
  "POST /sandbox/:whatsappId/reject": { params: { whatsappId: 1 }, missing: "id", rest: {} },
  "POST /sandbox/:whatsappId/lid-mapping": { params: { whatsappId: 1 }, missing: "phone", rest: { lid: "123" } },
  "POST /sandbox/:whatsappId/presence": {
    params: { whatsappId: 1 },
    missing: "state",
    rest: { from: "5511988887777" },
  },
  "POST /schedules": { params: {}, missing: "sendAt", rest: { body: "Call me back", contactId: 1 } },
  "PUT /settings/:key": { params: { key: "userCreation" }, missing: "value", rest: {} },
  "POST /settingsMessage": { params: {}, missing: "whatsappId", rest: { limit: 10 } },
  "POST /tags": { params: {}, missing: "name", rest: { color: "#eee" } },
  "POST /tags/sync": { params: {}, missing: "tags", rest: { ticketId: 1 } },
  "POST /tickets": { params: {}, missing: "contactId", rest: { status: "open" } },
  "POST /tickets/:id/snooze": { params: { id: 1 }, missing: "until", rest: {} },
  "POST /tickets/:id/presence": { params: { id: 1 }, missing: "state", rest: {} },
  "POST /tickets/:id/ai/translate-reply": { params: { id: 1 }, missing: "text", rest: {} },
  "POST /messages/:id/forward": { params: { id: 1 }, missing: "contactIds", rest: {} },
  "POST /messages/:id/react": { params: { id: 1 }, missing: "emoji", rest: {} },
  "PUT /tickets/:id/draft": { params: { id: 1 }, missing: "body", rest: {} },
  "POST /users": { params: {}, missing: "password", rest: { name: "Ana", email: "ana@example.com" } },
  "PUT /users/:id/availability": { params: { id: 1 }, missing: "availability", rest: {} },
  "POST /webhooks": { params: {}, missing: "events", rest: { url: "https://example.com/hook" } },
  "POST /whatsapp": { params: {}, missing: "name", rest: { provider: "sandbox" } },
};

describe("the API contract", () => {
  test("every route of the contract takes the body and query its server route validates and answers what it promises", () => {
    // Does not compile while a route drifts: the type error lists each route and what differs.
    const drifting: Record<Drift, true> = {};
    expect(Object.keys(drifting)).toEqual([]);
  });

  test("a body without a field its contract requires is refused as 400 VALIDATION naming that field", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const refusals: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [route, { params, missing, rest }] of Object.entries(MISSING)) {
      const { method, path } = routeTarget(route as WithRequiredField, params as never);
      const res = await call(ctx.app, method, `/api${path}`, { token, body: rest });
      refusals[route] = { status: res.status, error: res.json?.error, field: res.json?.field, rule: res.json?.rule };
      expected[route] = { status: 400, error: "VALIDATION", field: missing, rule: "required" };
    }
    expect(refusals).toEqual(expected);
  });
});
