import { closeDatabase, first, one as oneRow, openDatabase } from "../src/db/client";
/**
 * M5, per extra WhatsApp session: the app's WhatsApp side in a process of its own (the wiring the server uses,
 * with the real Baileys driver) against the local fake WhatsApp server the driver tests use. One process holds
 * one connected session, another holds `1 + extra`; the figure is the difference per extra session.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { runMigrations } from "../src/db/migrate";
import { connections } from "../src/db/tables";
import { FAKE_ROOT_PUBLIC_KEY, FakeWa } from "../tests/channels/fakewa/server";
import { waitFor } from "../tests/wait-for";
import type { Figure } from "./figure";
import { ROOT, rssMiB } from "./server-process";

const TARGET = 20;
const SETTLE_MS = 3000;

export async function measureBaileysSessions(extra = 4): Promise<Figure[]> {
  const one = await rssWithSessions(1);
  const many = await rssWithSessions(1 + extra);
  const perSession = (many - one) / extra;
  return [
    {
      id: "M5",
      what: `RSS per extra Baileys session (${one.toFixed(0)} MiB with 1, ${many.toFixed(0)} MiB with ${1 + extra}; fake WhatsApp server)`,
      value: perSession,
      unit: "MiB",
      target: `≤ ${TARGET}`,
      met: perSession <= TARGET,
    },
  ];
}

/** RSS of a process holding `n` connected Baileys sessions, paired one after the other with the same fake server. */
async function rssWithSessions(n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-wa-"));
  const dbPath = join(dir, "zapdesk.sqlite");
  const fake = new FakeWa();
  const db = openDatabase(dbPath);
  runMigrations(db);
  const ids: number[] = [];
  for (let i = 0; i < n; i++)
    ids.push(
      (
        await oneRow(
          db
            .insert(connections)
            .values({ name: `WA ${i}`, provider: "baileys" })
            .returning(),
        )
      ).id,
    );
  const proc = Bun.spawn([process.execPath, join(ROOT, "tests", "channels", "fakewa", "app-process.ts")], {
    cwd: ROOT,
    env: { ...process.env, FAKEWA_URL: fake.url, FAKEWA_ROOT: FAKE_ROOT_PUBLIC_KEY, DB_PATH: dbPath, MEDIA_DIR: dir },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    const row = async (id: number) => await first(db.select().from(connections).where(eq(connections.id, id)));
    for (const id of ids) {
      const qr = await waitFor(async () =>
        (await row(id))?.status === "qrcode" ? (await row(id))?.qrcode : undefined,
      );
      fake.scan(qr);
      await waitFor(async () => (await row(id))?.status === "CONNECTED");
    }
    await Bun.sleep(SETTLE_MS);
    return rssMiB(proc.pid);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    fake.stop();
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
