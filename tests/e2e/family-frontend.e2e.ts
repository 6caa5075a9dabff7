import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { addSandboxConnection, addUser, bootE2E, openPage } from "./boot";

/**
 * A stand-in for a whaticket-family frontend: a page served from its own origin that does what their React app
 * does against its backend URL (`https://<zapdesk>/api`): logs in with credentials, opens Socket.IO on that URL
 * (namespace `/api`) with the token in the query, joins the notification and ticket rooms, and shows each new
 * message (its text, media type and file) as it arrives.
 */
const FAMILY_PAGE = `<!doctype html><meta charset="utf-8"><title>family</title>
<script src="/socket.io.min.js"></script>
<p id="state">starting</p><ul id="messages"></ul>
<script>
  const backend = new URLSearchParams(location.search).get("backend");
  (async () => {
    const res = await fetch(backend + "/auth/login", {
      method: "POST", credentials: "include", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "family@example.com", password: "secret-123" }),
    });
    const { token } = await res.json();
    const socket = io(backend, { query: { token } });
    socket.on("ready", () => {
      socket.emit("joinNotification");
      socket.emit("joinTickets", "pending");
      document.getElementById("state").textContent = "connected";
    });
    socket.on("appMessage", ({ action, message }) => {
      if (action !== "create") return;
      const li = document.createElement("li");
      li.dataset.type = message.mediaType;
      li.textContent = message.body;
      if (message.mediaUrl && message.mediaType === "image") {
        const img = document.createElement("img");
        img.src = message.mediaUrl;
        li.append(img);
      }
      document.getElementById("messages").append(li);
    });
  })();
</script>`;

const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let env: Awaited<ReturnType<typeof bootE2E>>;
let front: ReturnType<typeof Bun.serve>;
let frontOrigin: string;
let whatsappId: number;

beforeAll(async () => {
  front = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname === "/socket.io.min.js")
        return new Response(
          Bun.file(join(import.meta.dir, "../../node_modules/socket.io-client/dist/socket.io.min.js")),
          { headers: { "content-type": "text/javascript" } },
        );
      return new Response(FAMILY_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  // "localhost" and "127.0.0.1" are different sites to the browser: the family page is truly cross-site.
  frontOrigin = `http://localhost:${front.port}`;
  env = await bootE2E({ corsOrigins: [frontOrigin] });
  await addUser(env, { name: "Família", email: "family@example.com", password: "secret-123" }, "admin");
  whatsappId = await addSandboxConnection(env);
}, 30_000);

afterAll(async () => {
  await env?.stop();
  front?.stop(true);
});

describe("a whaticket-family frontend on another origin", () => {
  test("logs in across origins, receives new messages live over Socket.IO, and shows a received image", async () => {
    const { page, errors, context } = await openPage(env.browser);
    await page.goto(`${frontOrigin}/?backend=${encodeURIComponent(`${env.base}/api`)}`);
    await page.waitForFunction(() => document.getElementById("state")?.textContent === "connected");

    await env.sandbox.inbound(whatsappId, { from: "5511955554444", body: "Olá da família" });
    await page.locator('li[data-type="chat"]', { hasText: "Olá da família" }).waitFor();

    await env.sandbox.inbound(whatsappId, {
      from: "5511955554444",
      mediaType: "image",
      mediaBase64: PNG_BASE64,
      fileName: "foto.png",
    });
    const image = page.locator('li[data-type="image"] img');
    await image.waitFor();
    await page.waitForFunction(
      () => (document.querySelector('li[data-type="image"] img') as HTMLImageElement)?.naturalWidth > 0,
    );
    expect(await image.getAttribute("src")).toStartWith(`${env.base}/api/media/`);

    await env.sandbox.inbound(whatsappId, {
      from: "5511955554444",
      mediaType: "vcard",
      body: "BEGIN:VCARD\nVERSION:3.0\nFN:Carla\nTEL;type=CELL;waid=5511966665555:+55 11 96666-5555\nEND:VCARD",
    });
    await page.locator('li[data-type="contactMessage"]').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);
});
