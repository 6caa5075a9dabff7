/**
 * P7 as a user's server meets it: the server process itself (the compiled binary, and the bundle `npm start` runs)
 * with WA_SOCKET_URL and WA_CERT_ROOT pointing at the fake WhatsApp server in a process of its own. A connection is
 * created and paired over the API; then, three times, 40 new contacts each send 10 texts at once, and the rate is
 * the 400 texts over the time from the burst's start to the last one stored (read from the server's database
 * file, looked at every 5 ms). The first burst is the server's first work after its start; the next ones are what it does from then on.
 * `bun bench/baileys-server.ts` runs it on both.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../tests/wait-for";
import { startFake } from "./baileys-path";
import type { Figure } from "./figure";
import { printFigures } from "./ingest";
import { processCpuMicros } from "./pg-cpu";
import { login, serverCommand, startServer } from "./server-process";

const RATE_TARGET = 1_000;
const CONTACTS = 40;
const EACH = 10;
const BURSTS = 3;

interface Burst {
  rate: number;
  /** The server process's CPU per message, in microseconds. */
  cpuUs: number;
}

export async function measureBaileysServer(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const kind of ["binary", "source"] as const) {
    const [first, ...later] = await burstsThroughServer(kind);
    const name = kind === "binary" ? "the binary" : "npm start's bundle";
    const rate = later.reduce((sum, b) => sum + b.rate, 0) / later.length;
    const cpu = later.reduce((sum, b) => sum + b.cpuUs, 0) / later.length;
    figures.push(
      {
        id: "P7",
        what: `Baileys path through ${name} (WA_SOCKET_URL: the fake WhatsApp server in its own process), 400 texts from 40 new contacts, bursts 2-${BURSTS} after the server's first (${cpu.toFixed(0)} µs server CPU per message)`,
        value: rate,
        unit: "msg/s",
        target: `≥ ${RATE_TARGET}`,
        met: rate >= RATE_TARGET,
      },
      {
        id: "P7",
        what: `Baileys path through ${name}, the same 400 texts as the server's first work after its start (${first!.cpuUs.toFixed(0)} µs server CPU per message)`,
        value: first!.rate,
        unit: "msg/s",
      },
    );
  }
  return figures;
}

/** Starts the server against a fake WhatsApp server, pairs a connection and times BURSTS bursts. */
async function burstsThroughServer(kind: "binary" | "source"): Promise<Burst[]> {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-waserver-"));
  const fake = await startFake();
  const server = await startServer(serverCommand(kind), dir, {
    NODE_ENV: "production",
    SANDBOX: "off",
    WA_SOCKET_URL: fake.url,
    WA_CERT_ROOT: fake.root,
    // No internet here: the version is given rather than read from web.whatsapp.com.
    WA_VERSION: "2.3000.1023456789",
  });
  let db: Database | undefined;
  try {
    const auth = await login(server.base);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.base}/api${path}`, {
        method,
        headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as { id: number; status: string; qrcode: string };
    };
    const { id } = await api("POST", "/whatsapp", { name: "Bench", provider: "baileys" });
    const connection = () => api("GET", `/whatsapp/${id}`);
    const qr = await waitFor(async () => {
      const row = await connection();
      return row.status === "qrcode" && row.qrcode;
    });
    await fake.command({ op: "scan", qr });
    await waitFor(async () => (await connection()).status === "CONNECTED");
    // Past the fake's login backlog.
    await Bun.sleep(300);
    db = new Database(join(dir, "zapdesk.sqlite"), { readonly: true });
    const count = db.query<{ n: number }, []>("select count(*) as n from messages");
    const stored = () => count.get()!.n;
    const bursts: Burst[] = [];
    for (let b = 0; b < BURSTS; b++) {
      const before = stored();
      const cpu = processCpuMicros(server.proc.pid);
      const started = performance.now();
      await fake.command({ op: "burst", contacts: CONTACTS, each: EACH, prefix: `S${b}`, firstContact: b * CONTACTS });
      await waitFor(() => stored() >= before + CONTACTS * EACH);
      const seconds = (performance.now() - started) / 1000;
      const total = CONTACTS * EACH;
      bursts.push({ rate: total / seconds, cpuUs: (processCpuMicros(server.proc.pid) - cpu) / total });
    }
    return bursts;
  } finally {
    db?.close();
    await server.stop();
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  printFigures(await measureBaileysServer());
  process.exit(0);
}
