import { version } from "../package.json";
import { loadConfig, readConfig } from "./config";

const HELP = `Zapdesk ${version}: a self-hosted customer-service inbox for WhatsApp.

Usage:
  zapdesk                          serve the inbox (the default)
  zapdesk backup --out FILE        copy the database while the server runs
         [--with-media]            ... with the media folder, as a tar archive
                                   (on PostgreSQL: pg_dump's copy of the database, without media);
                                   uploaded to BACKUP_S3_URL too when it is set
  zapdesk restore FILE [--force]   restore a backup into DATA_DIR (stop the server first;
                                   --force replaces a database that already has users)
  zapdesk restore --offsite NAME   ... one of BACKUP_S3_URL's folder, downloaded first
         [--force]                 (NAME: a file there, or "latest" for the newest scheduled one)
  zapdesk import-whaticket --from URL
         [--media-dir DIR]         copy a whaticket installation (postgres:// or mysql:// URL of its
                                   database; DIR: its backend/public folder) into this inbox; run it
                                   again to add what is new. WhatsApp connections must be paired again.
  zapdesk migrate-to-postgres --to URL
                                   copy this inbox's database (DATA_DIR) into an empty PostgreSQL
                                   database (postgres://user:pass@host/db, or ?host=/socket/dir) and
                                   compare the row counts; stop the server first
  zapdesk healthcheck              exit 0 when the server on PORT answers /health
  zapdesk --version                print the version
  zapdesk --help                   print this help

Every command reads the same environment as the server (DATA_DIR, PORT, ...); see the README.`;

type Io = { out: (line: string) => void; err: (line: string) => void };
const stdio: Io = { out: (l) => console.log(l), err: (l) => console.error(l) };

/**
 * Runs the command named by `args` (process.argv after the program) and returns its exit code, or null when
 * the command is to serve (no command, or `serve`).
 */
export async function runCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  io: Io = stdio,
): Promise<number | null> {
  const [command, ...rest] = args;
  const flag = (name: string) => rest.includes(name);
  const value = (name: string) => {
    const at = rest.indexOf(name);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  try {
    switch (command) {
      case undefined:
      case "serve":
        return null;
      case "--version":
      case "-v":
      case "version":
        io.out(version);
        return 0;
      case "--help":
      case "-h":
      case "help":
        io.out(HELP);
        return 0;
      case "backup": {
        const out = value("--out");
        if (!out) return usage(io, "backup needs --out FILE");
        const config = readConfig(env);
        const { backup, dumpPostgres, uploadOffsite } = await backupCommands();
        if (config.databaseUrl) {
          await dumpPostgres(config, out, env.PATH);
          io.out(
            `PostgreSQL database written to ${out} by pg_dump (restore it with pg_restore); copy MEDIA_DIR (${config.mediaDir}) beside it`,
          );
        } else {
          await backup(config, out, { withMedia: flag("--with-media") });
          io.out(`backup written to ${out}`);
        }
        if (config.backupS3) io.out(`uploaded to ${await uploadOffsite(config.backupS3, out)}`);
        return 0;
      }
      case "restore": {
        const file = rest.find((a) => !a.startsWith("--"));
        if (!file)
          return usage(io, flag("--offsite") ? "restore --offsite needs a NAME" : "restore needs the backup FILE");
        const config = readConfig(env);
        const { restore, downloadOffsite } = await backupCommands();
        if (flag("--offsite")) {
          if (!config.backupS3) return usage(io, "restore --offsite needs BACKUP_S3_URL");
          const name = await downloadOffsite(config.backupS3, file, (copy) =>
            restore(config, copy, { force: flag("--force") }),
          );
          io.out(`restored ${name} from ${config.backupS3.shown}; start the server to use it`);
          return 0;
        }
        restore(config, file, { force: flag("--force") });
        io.out(`restored ${file}; start the server to use it`);
        return 0;
      }
      case "import-whaticket": {
        const from = value("--from");
        if (!from) return usage(io, "import-whaticket needs --from postgres://… or mysql://…");
        // Loaded only for this command: the server, which starts through this file too, never holds it.
        const { importWhaticket } = await import("./ops/import-whaticket");
        const report = await importWhaticket(loadConfig(env), from, {
          mediaDir: value("--media-dir"),
          onTable: (table) => io.out(`importing ${table}…`),
        });
        for (const [table, n] of Object.entries(report.tables))
          io.out(`${table.padEnd(20)} ${n.imported} imported, ${n.existing} already here, ${n.skipped} left out`);
        io.out("done: pair each WhatsApp connection again (Connections → QR code)");
        return 0;
      }
      case "migrate-to-postgres": {
        const to = value("--to");
        if (!to) return usage(io, "migrate-to-postgres needs --to postgres://…");
        return await migrate(loadConfig(env), to, io);
      }
      case "healthcheck":
        return await healthcheck(env);
      default:
        return usage(io, `unknown command "${command}"`);
    }
  } catch (error) {
    io.err(`zapdesk ${command}: ${(error as Error).message}`);
    return 1;
  }
}

/** The backup commands' code, loaded only for them: the server, which starts through this file too, never runs it. */
async function backupCommands() {
  const [{ backup, restore }, { downloadOffsite, uploadOffsite }, { dumpPostgres }] = await Promise.all([
    import("./ops/backup"),
    import("./ops/offsite-cli"),
    import("./ops/pg-backup"),
  ]);
  return { backup, restore, downloadOffsite, uploadOffsite, dumpPostgres };
}

function usage(io: Io, problem: string): number {
  io.err(`${problem}\n\n${HELP}`);
  return 2;
}

/** Runs the copy into PostgreSQL and prints each table's counts; exit 1 when a count differs. */
async function migrate(config: ReturnType<typeof loadConfig>, to: string, io: Io): Promise<number> {
  io.out("copying into PostgreSQL: the server must be stopped, rows it writes meanwhile are not copied");
  const { migrateToPostgres } = await import("./ops/migrate-to-postgres");
  const report = await migrateToPostgres(config, to, { onTable: (table) => io.out(`copying ${table}…`) });
  for (const t of report.tables)
    io.out(
      `${t.table.padEnd(24)} ${String(t.source).padStart(8)} in SQLite ${String(t.target).padStart(8)} in PostgreSQL${t.source === t.target ? "" : "  ← differs"}`,
    );
  const rows = report.tables.reduce((sum, t) => sum + t.target, 0);
  const seconds = (report.ms / 1000).toFixed(1);
  if (!report.ok) {
    io.err("row counts differ: the copy was rolled back, PostgreSQL holds none of it");
    return 1;
  }
  io.out(`done: ${rows} rows in ${report.tables.length} tables copied and counted in ${seconds} s`);
  return 0;
}

/** For container health checks (the image has no curl): asks the local server's /health. */
async function healthcheck(env: Record<string, string | undefined>): Promise<number> {
  const port = Number(env.PORT || 8080);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3000) });
    return res.ok ? 0 : 1;
  } catch {
    return 1;
  }
}
