/**
 * The floods of the abuse audit, against the server as its own process (`bun src/server.ts`, default password
 * hashing), while `/health` is timed every 100 ms from another process: 1,000 simultaneous correct logins of one
 * account, 500 simultaneous wrong logins for unknown emails from one address, then one signed-in user with 200
 * API requests in flight, then 200 sockets of that user sending 100 frames each. Prints the answers' statuses and
 * the /health latencies. `bun bench/abuse.ts [logins] [unknown] [inFlight]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, ROOT, startServer } from "./server-process";

const logins = Number(process.argv[2] ?? 1000);
const unknown = Number(process.argv[3] ?? 500);
const inFlight = Number(process.argv[4] ?? 200);
const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-abuse-"));
// The per-user limits as shipped (the other benchmarks switch them off).
const server = await startServer([process.execPath, join(ROOT, "src", "server.ts")], dataDir, {
  API_USER_CONCURRENCY: process.env.API_USER_CONCURRENCY ?? "16",
  API_USER_RATE: process.env.API_USER_RATE ?? "20",
});

async function flood(label: string, count: number, request: (i: number) => Promise<Response>) {
  // The probe runs in its own process: this one's fetch holds a few hundred connections per host at a time,
  // and a probe queued behind the flood there would time the client, not the server.
  const probe = Bun.spawn([process.execPath, join(import.meta.dir, "health-probe.ts"), server.base], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      request(i).then(
        (r) => r.status,
        () => 0,
      ),
    ),
  );
  const tookMs = performance.now() - started;
  probe.kill("SIGTERM");
  const latencies = (await new Response(probe.stdout).text()).split("\n").filter(Boolean).map(Number);
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  console.log(
    `${label}: all answered in ${(tookMs / 1000).toFixed(1)} s, statuses ${JSON.stringify(counts)}; ` +
      `/health over ${latencies.length} probes: median ${at(0.5)} ms, max ${at(1)} ms`,
  );
}

/**
 * `count` sockets of one user each send `frames` frames the server reads and acts on, without answering; a round
 * counts 200 while every socket is open, 1008 once the frame rate has closed some.
 */
async function floodSockets(token: string, count: number, frames: number) {
  const url = `${server.base.replace(/^http/, "ws")}/ws?token=${token}`;
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve(ws);
          ws.onerror = () => reject(new Error("socket refused"));
        }),
    ),
  );
  await flood(`${count} sockets sending ${frames} frames each`, frames, async (round) => {
    for (const ws of sockets)
      ws.send(round % 2 ? '{"type":"joinTickets","status":"open"}' : '{"type":"joinTickets","status":"nope"}');
    await Bun.sleep(1);
    return new Response(null, { status: sockets.every((ws) => ws.readyState === WebSocket.OPEN) ? 200 : 1008 });
  });
  for (const ws of sockets) ws.close();
}

const login = (credentials: { email: string; password: string }) =>
  fetch(`${server.base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });

try {
  await flood(`${logins} simultaneous correct logins of one account`, logins, () => login(ADMIN));
  await flood(`${unknown} simultaneous wrong logins for unknown emails from one address`, unknown, (i) =>
    login({ email: `nobody-${i}@example.com`, password: "wrong-password" }),
  );
  const after = await login(ADMIN);
  console.log(`a correct login from the same address afterwards: ${after.status}`);
  const { token } = (await after.json()) as { token: string };
  await flood(`${inFlight} API requests in flight from one signed-in user`, inFlight, () =>
    fetch(`${server.base}/api/tickets?status=open&showAll=true`, { headers: { authorization: `Bearer ${token}` } }),
  );
  await floodSockets(token, 200, 100);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
