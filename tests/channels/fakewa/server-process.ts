/**
 * The fake WhatsApp server in a process of its own, so a benchmark measures the app's CPU without the fake's.
 * Prints one JSON line `{ url, root }` (its address and root key, for `trustFakeRoot`), then takes one JSON command
 * per line on stdin: `{ op: "scan", qr }`, and `{ op: "burst", contacts, each, prefix, firstContact? }` (each of
 * `contacts` contacts, numbered from `firstContact`, sends `each` texts at once, interleaved; ids
 * `${prefix}-${contact}-${i}`), answered `{ done: op }`.
 */
import { FAKE_ROOT_PUBLIC_KEY, FakeWa } from "./server";

type Command =
  | { op: "scan"; qr: string }
  | { op: "burst"; contacts: number; each: number; prefix: string; firstContact?: number };

const fake = new FakeWa();
const answer = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
answer({ url: fake.url, root: FAKE_ROOT_PUBLIC_KEY });

function run(command: Command) {
  if (command.op === "scan") fake.scan(command.qr);
  else
    for (let i = 0; i < command.each; i++)
      for (let c = 0; c < command.contacts; c++) {
        const phone = `55219${String((command.firstContact ?? 0) + c).padStart(8, "0")}`;
        fake.deliver(phone, `${command.prefix}-${c}-${i}`, { conversation: `hello ${c} ${i}` });
      }
  answer({ done: command.op });
}

let buffered = "";
for await (const chunk of Bun.stdin.stream()) {
  buffered += new TextDecoder().decode(chunk);
  let end = buffered.indexOf("\n");
  while (end >= 0) {
    run(JSON.parse(buffered.slice(0, end)) as Command);
    buffered = buffered.slice(end + 1);
    end = buffered.indexOf("\n");
  }
}
fake.stop();
