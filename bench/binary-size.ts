/** M7: the size of the compiled binary (dist/zapdesk), next to the Bun runtime it is built on. */
import { statSync } from "node:fs";
import type { Figure } from "./figure";
import { BINARY } from "./server-process";

const TARGET_MIB = 120;

export function measureBinarySize(): Figure[] {
  const mib = statSync(BINARY).size / 1024 / 1024;
  const runtime = statSync(process.execPath).size / 1024 / 1024;
  return [
    {
      id: "M7",
      what: "binary size (dist/zapdesk)",
      value: mib,
      unit: "MiB",
      target: `≤ ${TARGET_MIB}`,
      met: mib <= TARGET_MIB,
      baseline: { what: "the Bun runtime alone", value: runtime },
    },
  ];
}
