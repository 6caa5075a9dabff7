// @engine once
// @group processes
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAKE_ROOT_PUBLIC_KEY, FakeWa } from "./fakewa/server";
import { freePort } from "../free-port";
import { type ServerProcess, startServerProcess } from "../server-process";
import { waitFor } from "../wait-for";

/**
 * The server as it is run (`bun src/server.ts`), told by WA_SOCKET_URL and WA_CERT_ROOT to reach a fake WhatsApp
 * server: a WhatsApp Web connection created over the API pairs with it, stores what its contacts write, and after a
 * restart logs in again with the stored session, without a new QR.
 */
const ADMIN = { email: "admin@wa-socket.test", password: "wa-socket-admin-password" };
const root = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "zapdesk-wa-socket-"));
const fake = new FakeWa();
let server: ServerProcess | undefined;
let token = "";

async function startServer() {
  return await startServerProcess({
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // No internet here: the version is given rather than read from web.whatsapp.com.
    WA_VERSION: "2.3000.1023456789",
    WA_SOCKET_URL: fake.url,
    WA_CERT_ROOT: FAKE_ROOT_PUBLIC_KEY,
  });
}

async function stopServer() {
  server?.proc.kill("SIGTERM");
  await server?.proc.exited;
  server = undefined;
}

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server!.base}/api${path}`, {
    method,
    headers: {
      ...(body ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the answer it checks
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

async function signIn() {
  token = "";
  token = (await api("POST", "/auth/login", ADMIN)).json.token;
}

/** The connection's row as the API shows it. */
async function connection(id: number) {
  return (await api("GET", `/whatsapp/${id}`)).json;
}

/** The texts of the chat with `phone`, oldest first, once it holds `count` of them. */
async function textsFrom(phone: string, count: number): Promise<string[]> {
  return await waitFor(async () => {
    const tickets = (await api("GET", "/tickets?showAll=true")).json.tickets as {
      id: number;
      contact: { number: string };
    }[];
    const ticket = tickets.find((t) => t.contact.number === phone);
    if (!ticket) return undefined;
    const messages = (await api("GET", `/messages/${ticket.id}`)).json.messages as { body: string }[];
    return messages.length >= count ? messages.map((m) => m.body) : undefined;
  });
}

beforeAll(async () => {
  server = await startServer();
  await signIn();
}, 60_000);

afterAll(async () => {
  await stopServer();
  fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the server reaching WhatsApp Web at WA_SOCKET_URL", () => {
  let id = 0;

  test("a connection created over the API pairs by QR and stores the texts its contacts write, in order", async () => {
    const created = await api("POST", "/whatsapp", { name: "Phone", provider: "baileys" });
    expect(created.status).toBe(200);
    id = created.json.id;
    const qr = await waitFor(async () => {
      const row = await connection(id);
      return row.status === "qrcode" && row.qrcode ? (row.qrcode as string) : undefined;
    });
    fake.scan(qr);
    await waitFor(async () => (await connection(id)).status === "CONNECTED");

    const phone = "5521988887777";
    for (const [i, text] of ["first", "second", "third"].entries())
      fake.deliver(phone, `WA-SOCKET-${i}`, { conversation: text });
    expect(await textsFrom(phone, 3)).toEqual(["first", "second", "third"]);
  }, 90_000);

  test("after a restart the connection logs in with its stored session and goes on storing texts", async () => {
    const loginsBefore = fake.logins;
    await stopServer();
    server = await startServer();
    await signIn();
    await waitFor(async () => (await connection(id)).status === "CONNECTED");
    expect(fake.logins).toBeGreaterThan(loginsBefore);

    const phone = "5521977776666";
    fake.deliver(phone, "WA-SOCKET-AFTER", { conversation: "after the restart" });
    expect(await textsFrom(phone, 1)).toEqual(["after the restart"]);
  }, 90_000);

  test("the server refuses to start when WA_CERT_ROOT is not a public key", async () => {
    const proc = Bun.spawn(["bun", "src/server.ts"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dir, PORT: String(freePort()), WA_SOCKET_URL: fake.url, WA_CERT_ROOT: "abc" },
      stdout: "ignore",
      stderr: "pipe",
    });
    expect(await proc.exited).not.toBe(0);
    expect(await new Response(proc.stderr).text()).toContain("WA_CERT_ROOT must be a 32-byte public key in base64");
  }, 60_000);
});
