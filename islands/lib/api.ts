import {
  type ApiRoute,
  type RouteAnswer,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  routeTarget,
  type Wire,
} from "../../src/shared/contracts";
import { getBoot } from "./boot";

/** A failed API call: HTTP status plus the server's `error` code, and for a VALIDATION the field and its rule's code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly field: string | null = null,
    readonly rule: string | null = null,
    /** The answer's other fields, e.g. the `ticketId` of ERR_OTHER_OPEN_TICKET (given to admins). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(code ?? `HTTP ${status}`);
  }
}

let token: string | null = null;
let refreshing: Promise<string | null | undefined> | null = null;

/** Sets the access token used by `api` and the socket (boot, login, refresh). */
export function setToken(value: string | null) {
  token = value;
}

/** The current access token. */
export function getToken(): string | null {
  return token ?? getBoot()?.token ?? null;
}

/**
 * A new access token from the refresh cookie (one request at a time); null when the session is gone, undefined
 * when the server was unreachable. Tabs take turns through a browser lock: a tab that sent a cookie another tab
 * had just replaced would be taken for a stolen copy, and the server would end the session.
 */
export function refresh(): Promise<string | null | undefined> {
  const ask = () => fetch("/api/auth/refresh_token", { method: "POST", credentials: "same-origin" });
  refreshing ??= oneTabAtATime(ask)
    .then(async (res) =>
      res.ok ? (((await res.json()) as { token: string }).token ?? null) : res.status === 401 ? null : undefined,
    )
    .then((fresh) => {
      if (fresh) setToken(fresh);
      return fresh;
    })
    .catch(() => undefined)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Runs `job` holding the refresh lock shared by this site's tabs (where the browser offers locks: HTTPS or localhost). */
function oneTabAtATime<T>(job: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? (navigator as { locks?: LockManager }).locks : undefined;
  return locks ? locks.request("zapdesk-refresh", job) : job();
}

/** Goes to the login page (after a 401: the session is gone). */
export function goToLogin() {
  setToken(null);
  if (location.pathname !== "/login") location.assign("/login");
}

/** How often a request refused for the user's burst (429 ERR_TOO_MANY_REQUESTS) is sent again. */
const BUSY_RETRIES = 3;
/** The longest wait for such a retry, whatever Retry-After says. */
const BUSY_WAIT_MAX_MS = 10_000;

/**
 * Calls `/api<path>` with the Bearer token. On 403 ERR_SESSION_EXPIRED it refreshes the token once and retries;
 * on 401 it logs out locally and goes to /login. A request refused because the user sent too many at once is
 * sent again after the server's Retry-After (the server refused it before doing anything). JSON bodies are
 * encoded; FormData is sent as is.
 */
export async function api<T = unknown>(path: string, init: ApiInit = {}): Promise<T> {
  const text = await (await apiResponse(path, init)).text();
  return (text ? JSON.parse(text) : null) as T;
}

/** `keepalive`: the request outlives the page (a last save as it closes). */
type ApiInit = { method?: string; body?: unknown; signal?: AbortSignal; noAuthRedirect?: boolean; keepalive?: boolean };

/** `api`'s request, answering the successful response itself (a file to save rather than JSON to read). */
export async function apiResponse(path: string, init: ApiInit = {}): Promise<Response> {
  const sendOnce = (bearer: string | null) => {
    const headers: Record<string, string> = {};
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    let body: BodyInit | undefined;
    if (init.body instanceof FormData) body = init.body;
    else if (init.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.body);
    }
    return fetch(`/api${path}`, {
      method: init.method ?? "GET",
      headers,
      body,
      signal: init.signal,
      keepalive: init.keepalive,
      credentials: "same-origin",
    });
  };
  const send = async (bearer: string | null) => {
    let res = await sendOnce(bearer);
    for (let retry = 0; retry < BUSY_RETRIES && (await isBusy(res)); retry++) {
      await pause(retryAfterMs(res));
      res = await sendOnce(bearer);
    }
    return res;
  };
  let res = await send(getToken());
  if (res.status === 403) {
    const code = await errorCode(res.clone());
    if (code === "ERR_SESSION_EXPIRED") {
      const fresh = await refresh();
      if (!fresh) {
        if (fresh === null) goToLogin();
        throw new ApiError(fresh === null ? 401 : 0, "ERR_SESSION_EXPIRED");
      }
      setToken(fresh);
      res = await send(fresh);
    }
  }
  if (res.status === 401 && !init.noAuthRedirect) {
    goToLogin();
  }
  if (!res.ok) {
    const data = (await res.json().catch(() => null)) as { error?: string; field?: string; rule?: string } | null;
    const { error, field, rule, ...details } = data ?? {};
    throw new ApiError(res.status, error ?? null, field ?? null, rule ?? null, details);
  }
  return res;
}

/** What a call of `route` sends: its path parameters, body and query, each only where the route has them. */
export type RouteInit<R extends ApiRoute> = ([keyof RouteParams<R>] extends [never]
  ? { params?: undefined }
  : { params: RouteParams<R> }) &
  (RouteBody<R> extends undefined ? { body?: undefined } : { body: RouteBody<R> }) &
  (RouteQuery<R> extends undefined ? { query?: undefined } : { query?: RouteQuery<R> }) & {
    signal?: AbortSignal;
    noAuthRedirect?: boolean;
    keepalive?: boolean;
  };

/**
 * Calls one route of the API contract (src/shared/contracts/routes.ts) through `api`: `callApi("PUT /tickets/:id",
 * { params: { id }, body: { status: "open" } })`. The body and query must be the route's contract types and the
 * answer comes typed, so a field renamed on either side fails to compile.
 */
export function callApi<R extends ApiRoute>(
  route: R,
  ...[init]: Partial<RouteInit<R>> extends RouteInit<R> ? [init?: RouteInit<R>] : [init: RouteInit<R>]
): Promise<Wire<RouteAnswer<R>>> {
  const { method, path } = routeTarget(route, (init?.params ?? {}) as RouteParams<R>);
  const query = init?.query ? `?${queryString(init.query)}` : "";
  const { body, signal, noAuthRedirect, keepalive } = init ?? {};
  return api(path + query, { method, body, signal, noAuthRedirect, keepalive });
}

/**
 * A query as its string (without the `?`), fields in the order given: numbers and booleans as text, lists as JSON
 * arrays (as the server's schemas read them); undefined fields are left out. `queryString<ListQuery>({ … })` checks
 * the fields against the route's query contract.
 */
export function queryString<Q extends object>(query: Q): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  return params.toString();
}

async function isBusy(res: Response): Promise<boolean> {
  return res.status === 429 && (await errorCode(res.clone())) === "ERR_TOO_MANY_REQUESTS";
}

function retryAfterMs(res: Response): number {
  const seconds = Number(res.headers.get("retry-after") ?? 1);
  return Number.isFinite(seconds) ? Math.min(BUSY_WAIT_MAX_MS, Math.max(0, seconds * 1000)) : 1000;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function errorCode(res: Response): Promise<string | null> {
  const data = (await res.json().catch(() => null)) as { error?: string } | null;
  return data?.error ?? null;
}
