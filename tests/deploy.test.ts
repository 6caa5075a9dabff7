import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseTrustProxy } from "../src/config";

const ROOT = join(import.meta.dir, "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The Dockerfile's instructions after its last FROM (the image that runs), with continuation lines joined. */
function runtimeStage(): { op: string; args: string }[] {
  const lines = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stage = lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)));
  return stage.map((l) => ({ op: l.split(/\s+/)[0]!.toUpperCase(), args: l.replace(/^\S+\s*/, "") }));
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

  test("checks its health with the binary itself and stops with SIGTERM", () => {
    expect(all("HEALTHCHECK").join(" ")).toMatch(/CMD \["zapdesk", "healthcheck"\]/);
    expect(all("STOPSIGNAL")).toEqual(["SIGTERM"]);
    expect(all("ENTRYPOINT")).toEqual(['["zapdesk"]']);
  });

  test("has time zone data and a .dockerignore that keeps local data and modules out", () => {
    expect(all("RUN").join(" ")).toContain("tzdata");
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["node_modules", "data", ".git"]) expect(ignored).toContain(entry);
  });
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
});
