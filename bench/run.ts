/**
 * `npm run bench`: compiles the binary, runs each measure below and prints one table (figure, target, met,
 * same-run baseline) and writes bench/results.json. `npm run bench -- --soak` runs the memory measure with a
 * 10-minute steady inbound flow instead and writes bench/results-soak.json. `--messages N` changes how many
 * inbound messages the memory measure sends first (100,000 by default, the target's figure). Loopback only;
 * temporary data directories.
 */
import { rmSync } from "node:fs";
import { measureAppAt10k } from "./app-at-10k";
import { measureBaileysPath } from "./baileys-path";
import { measureBaileysServer } from "./baileys-server";
import { measureBaileysSessions } from "./baileys-sessions";
import { createBigDataDir } from "./big-db";
import { measureBinarySize } from "./binary-size";
import { measureColdStart } from "./cold-start";
import { measureFanout } from "./fanout";
import { measureIngest } from "./ingest";
import { measureAssignment } from "./assignment";
import { measureLongChat } from "./long-chat";
import { measureQueriesAtScale } from "./queries";
import { measureStatements } from "./statements";
import type { Figure } from "./figure";
import { measureMemory } from "./memory";
import { printTable, writeResults } from "./report";
import { ROOT } from "./server-process";

const args = process.argv.slice(2);
const soak = args.includes("--soak");
const messagesArg = args.indexOf("--messages");
const messages = messagesArg >= 0 ? Number(args[messagesArg + 1]) : 100_000;
const BIG = { tickets: 100_000, messagesPerTicket: 10 };

/** A data directory holding 100,000 tickets and 1,000,000 messages, built once on first use. */
let big: string | undefined;
async function bigDataDir(): Promise<string> {
  big ??= await createBigDataDir(BIG);
  return big;
}

interface Measure {
  name: string;
  run: () => Promise<Figure[]> | Figure[];
}

const measures: Measure[] = soak
  ? [{ name: "memory soak", run: () => measureMemory({ messages, soakMinutes: 10 }) }]
  : [
      { name: "inbound ingest", run: () => measureIngest() },
      { name: "automatic assignment", run: () => measureAssignment() },
      { name: "fan-out to 500 and 2,000 sockets", run: () => measureFanout() },
      { name: "list, search, first page and reports at 100,000 tickets", run: () => measureQueriesAtScale(BIG) },
      { name: "the app at 10,000 tickets", run: measureAppAt10k },
      { name: "a long chat's first page", run: () => measureLongChat() },
      { name: "SQL statements per unit of work", run: () => measureStatements("sqlite") },
      { name: "memory", run: () => measureMemory({ messages, soakMinutes: 0 }) },
      { name: "memory per Baileys session", run: () => measureBaileysSessions() },
      { name: "the WhatsApp path through Baileys", run: () => measureBaileysPath() },
      { name: "the WhatsApp path through the server process", run: () => measureBaileysServer() },
      {
        name: "cold start",
        run: async () =>
          measureColdStart({ dataDir: await bigDataDir(), what: "100,000 tickets / 1,000,000 messages" }),
      },
      { name: "binary size", run: measureBinarySize },
    ];

for (const script of ["compile", "build:server"]) {
  const built = Bun.spawnSync([process.execPath, "run", script], { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`${script} failed: ${built.stderr.toString()}`);
}

const figures: Figure[] = [];
try {
  for (const measure of measures) {
    const started = performance.now();
    process.stderr.write(`${measure.name}…`);
    figures.push(...(await measure.run()));
    process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
} finally {
  if (big) rmSync(big, { recursive: true, force: true });
}
printTable(figures);
await writeResults(soak ? "results-soak.json" : "results.json", figures, { mode: soak ? "soak" : "standard" });
process.exit(0);
