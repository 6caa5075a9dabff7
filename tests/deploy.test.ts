import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTrustProxy } from "../src/config";

const ROOT = join(import.meta.dir, "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

type Instruction = { op: string; args: string };

/** The Dockerfile's stages, each its instructions from its FROM on, with continuation lines joined. */
function stages(): Instruction[][] {
  const lines = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const all: Instruction[][] = [];
  for (const line of lines) {
    const instruction = { op: line.split(/\s+/)[0]!.toUpperCase(), args: line.replace(/^\S+\s*/, "") };
    if (instruction.op === "FROM") all.push([]);
    all.at(-1)?.push(instruction);
  }
  return all;
}

/** The stage after the last FROM: the image that runs. */
const runtimeStage = () => stages().at(-1)!;

/** The directories the image creates for its runtime user, and that user's name. */
function ownedByRuntimeUser(): { user: string; dirs: string[] } {
  const stage = runtimeStage();
  const user = stage.filter((i) => i.op === "USER").at(-1)!.args;
  const run = stage.filter((i) => i.op === "RUN").map((i) => i.args);
  const dirs = run
    .flatMap((r) => r.split("&&"))
    .map((command) => command.trim().split(/\s+/))
    .filter((words) => words[0] === "chown" && words[1]?.split(":")[0] === user)
    .flatMap((words) => words.slice(2));
  return { user, dirs };
}

describe("Docker image", () => {
  const stage = runtimeStage();
  const all = (op: string) => stage.filter((i) => i.op === op).map((i) => i.args);

  test("runs as a named non-root user that owns /data, the declared volume", () => {
    const user = all("USER").at(-1)!;
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const run = all("RUN").join(" ");
    expect(run).toMatch(new RegExp(`useradd [^&]*--uid 65532[^&]* ${user}\\b`));
    expect(run).toMatch(new RegExp(`chown ${user}:\\S+ /data`));
    expect(all("VOLUME")).toContain("/data");
    expect(all("ENV").join(" ")).toContain("DATA_DIR=/data");
  });

  test("checks its health with the binary itself and stops with SIGTERM, passed on by an init that is PID 1", () => {
    expect(all("HEALTHCHECK").join(" ")).toMatch(/CMD \["zapdesk", "healthcheck"\]/);
    expect(all("STOPSIGNAL")).toEqual(["SIGTERM"]);
    expect(all("ENTRYPOINT")).toEqual(['["tini", "--", "zapdesk"]']);
  });

  test("the build stage installs from the lockfile alone and runs its scripts with the image's own Bun", () => {
    const build = stages()[0]!
      .filter((i) => i.op === "RUN")
      .map((i) => i.args);
    const install = build.find((r) => /\bbun install\b/.test(r))!;
    expect(install).toContain("--frozen-lockfile");
    // A fallback would hide a broken install (and npm is not in the Bun image).
    expect(install).not.toContain("||");
    // `--ignore-scripts` leaves the bun package's placeholder at node_modules/.bin/bun, first on `bun run`'s PATH.
    expect(install).toMatch(/--ignore-scripts/);
    expect(install).toMatch(/rm -f node_modules\/\.bin\/bun node_modules\/\.bin\/bunx/);
    expect(build.findIndex((r) => r.includes("bun run compile"))).toBeGreaterThan(build.indexOf(install));
  });

  test("has time zone data and a .dockerignore that keeps local data and modules out", () => {
    expect(all("RUN").join(" ")).toContain("tzdata");
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["node_modules", "data", ".git"]) expect(ignored).toContain(entry);
  });
});

describe("compose files", () => {
  type Service = { image?: string; build?: string; volumes?: string[]; environment?: Record<string, string> };
  type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };
  const files = ["docker-compose.yml", "deploy/docker-compose.cluster.yml"];
  const parse = (file: string) => Bun.YAML.parse(read(file)) as Compose;
  const zapdeskServices = (compose: Compose) =>
    Object.entries(compose.services).filter(([, service]) => service.image === "zapdesk:latest");
  const imageEnv = Object.fromEntries(
    runtimeStage()
      .filter((i) => i.op === "ENV")
      .flatMap((i) => i.args.split(/\s+/).map((pair) => pair.split("=") as [string, string])),
  );

  test.each(files)("%s parses, builds the project's Dockerfile and declares every named volume it mounts", (file) => {
    const compose = parse(file);
    const servers = zapdeskServices(compose);
    expect(servers.length).toBeGreaterThan(0);
    for (const [, service] of servers)
      expect(readFileSync(join(ROOT, file, "..", service.build!, "Dockerfile"))).toBeTruthy();
    for (const service of Object.values(compose.services))
      for (const mount of service.volumes ?? []) {
        const source = mount.split(":")[0]!;
        if (!source.startsWith(".") && !source.startsWith("/"))
          expect(Object.keys(compose.volumes ?? {})).toContain(source);
      }
  });

  test.each(files)(
    "%s hands the first admin's ADMIN_EMAIL and ADMIN_PASSWORD, as its comment says, to Zapdesk",
    (file) => {
      expect(read(file)).toMatch(/or set ADMIN_EMAIL\/ADMIN_PASSWORD/);
      // Without a value: compose passes on the variable where it runs, and leaves it unset when that has none
      // (podman-compose would keep an empty default, `${ADMIN_EMAIL:-}`, as those very characters).
      for (const [, service] of zapdeskServices(parse(file)))
        expect(service.environment).toMatchObject({ ADMIN_EMAIL: null, ADMIN_PASSWORD: null });
    },
  );

  test.each(files)(
    "%s mounts Zapdesk's volumes only on directories the image creates for its user, and keeps DATA_DIR and MEDIA_DIR on them",
    (file) => {
      const { dirs } = ownedByRuntimeUser();
      for (const [, service] of zapdeskServices(parse(file))) {
        const targets = (service.volumes ?? []).map((mount) => mount.split(":")[1]!);
        // A new volume takes the owner of the directory it is mounted on: any other would be root's.
        for (const target of targets) expect(dirs).toContain(target);
        const env = { ...imageEnv, ...service.environment };
        const written = [env.DATA_DIR!, env.MEDIA_DIR ?? `${env.DATA_DIR}/media`];
        for (const dir of written) expect(targets.some((t) => dir === t || dir.startsWith(`${t}/`))).toBe(true);
      }
    },
  );
});

describe("deploy recipes", () => {
  test("compose puts Caddy in front for HTTPS and tells Zapdesk to trust the compose network it is on", () => {
    const compose = read("docker-compose.yml");
    expect(compose).toMatch(/image: caddy:2/);
    expect(compose).toMatch(/TRUST_PROXY: "10\.0\.0\.0\/8,172\.16\.0\.0\/12,192\.168\.0\.0\/16"/);
    expect(compose).not.toMatch(/^\s+ports:[\s\S]*8080/m);
    expect(compose).toMatch(/SECURE_COOKIES: "true"/);
    expect(compose).toMatch(/- zapdesk-data:\/data/);
    expect(read("deploy/Caddyfile")).toMatch(/reverse_proxy .*zapdesk:8080/);
  });

  test("every recipe lists its proxy's addresses in TRUST_PROXY, in the form read without a warning", () => {
    const values = ["docker-compose.yml", "deploy/docker-compose.cluster.yml", "deploy/zapdesk.service"].map(
      (file) => read(file).match(/TRUST_PROXY[:=] ?"?([^"\s]+)/)?.[1],
    );
    expect(values).toEqual([
      "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16",
      "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16",
      "127.0.0.1",
    ]);
    for (const value of values) expect(parseTrustProxy(value).warning).toBeUndefined();
  });

  test("the systemd unit keeps its data in a private state directory, restarts on failure and is hardened", () => {
    const unit = read("deploy/zapdesk.service");
    const set = (key: string) => unit.match(new RegExp(`^${key}=(.*)$`, "m"))?.[1];
    expect(set("StateDirectory")).toBe("zapdesk");
    expect(set("Environment")).toContain("DATA_DIR=/var/lib/zapdesk");
    expect(set("DynamicUser")).toBe("yes");
    expect(set("Restart")).toBe("on-failure");
    expect(set("NoNewPrivileges")).toBe("yes");
    expect(set("ProtectSystem")).toBe("strict");
    // The JavaScript engine's JIT needs writable and executable memory.
    expect(set("MemoryDenyWriteExecute")).toBeUndefined();
  });

  test("the README's systemd backup and restore run as the unit's dynamic user, on its state directory and settings", () => {
    const unit = read("deploy/zapdesk.service");
    const set = (key: string) => unit.match(new RegExp(`^${key}=(.*)$`, "m"))?.[1];
    const readme = read("README.md");
    const command = readme.match(/^ *(systemd-run (?:[^\n]*\\\n)*[^\n]*)/m)?.[1].replace(/\\\n\s*/g, " ");
    expect(command).toBeDefined();
    const properties = [...command!.matchAll(/-p (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]);
    const property = (key: string) => properties.find(([k]) => k === key)?.[1];
    expect(property("DynamicUser")).toBe("yes");
    // The same dynamic user (a name the unit fixes) and state directory, so its files stay the service's.
    expect(set("User")).toBeDefined();
    expect(property("User")).toBe(set("User"));
    expect(property("StateDirectory")).toBe(set("StateDirectory"));
    expect(property("UMask")).toBe(set("UMask"));
    expect(property("EnvironmentFile")).toBe(set("EnvironmentFile"));
    const dataDir = set("Environment")!.match(/DATA_DIR=(\S+)/)![1]!;
    expect(property("Environment")).toBe(`DATA_DIR=${dataDir}`);
    expect(command).toContain(`zapdesk backup --out ${dataDir}/`);
    expect(readme).toContain(`zapdesk restore ${dataDir}/`);
    expect(readme).not.toContain("sudo -u");
  });
});

/** A copy of the unit whose ExecStart names an executable that exists here (the binary is not installed). */
function unitToCheck(): string {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-unit-"));
  const executable = join(dir, "zapdesk");
  writeFileSync(executable, "#!/bin/sh\n", { mode: 0o755 });
  const unit = join(dir, "zapdesk.service");
  writeFileSync(unit, read("deploy/zapdesk.service").replaceAll("/usr/local/bin/zapdesk", executable));
  return unit;
}

const analyze = Bun.which("systemd-analyze");
if (!analyze) console.warn("systemd-analyze not found: the systemd unit's verify and security checks are skipped");

describe.skipIf(!analyze)("systemd unit, checked by systemd-analyze", () => {
  test("passes systemd-analyze verify", () => {
    const unit = unitToCheck();
    const run = Bun.spawnSync([analyze!, "verify", unit], { stderr: "pipe", stdout: "pipe" });
    rmSync(join(unit, ".."), { recursive: true, force: true });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe("");
    expect(run.exitCode).toBe(0);
  });

  test("has an exposure level of 4.0 or lower (OK) in systemd-analyze security", () => {
    const unit = unitToCheck();
    const run = Bun.spawnSync([analyze!, "security", "--offline=true", "--threshold=40", unit], { stdout: "pipe" });
    rmSync(join(unit, ".."), { recursive: true, force: true });
    expect(`${run.stdout}`).toMatch(/Overall exposure level for zapdesk\.service: [0-3]\.\d|4\.0/);
    expect(run.exitCode).toBe(0);
  });
});

const caddy = Bun.which("caddy");
if (!caddy) console.warn("caddy not found (Debian: apt install caddy): the Caddyfiles' validation is skipped");

describe.skipIf(!caddy)("Caddyfiles, checked by caddy validate", () => {
  test.each(["deploy/Caddyfile", "deploy/Caddyfile.cluster"])("%s is a valid configuration", (file) => {
    const home = mkdtempSync(join(tmpdir(), "zapdesk-caddy-"));
    const run = Bun.spawnSync([caddy!, "validate", "--adapter", "caddyfile", "--config", join(ROOT, file)], {
      env: {
        PATH: process.env.PATH!,
        HOME: home,
        XDG_DATA_HOME: home,
        XDG_CONFIG_HOME: home,
        DOMAIN: "inbox.example.com",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    rmSync(home, { recursive: true, force: true });
    expect(`${run.stdout}${run.stderr}`).toContain("Valid configuration");
    expect(run.exitCode).toBe(0);
  });
});
