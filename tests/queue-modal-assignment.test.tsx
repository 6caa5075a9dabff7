import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { QueueModal } from "../islands/admin/QueueModal";
import { I18nProvider } from "../islands/lib/i18n-context";
import { i18nFor } from "../src/i18n/server";

const modal = (language: "en" | "pt" | "es") =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18nFor(language)}>
      <QueueModal queueId={null} onClose={() => {}} onSaved={() => {}} />
    </I18nProvider>,
  );

describe("the queue modal's assignment fields", () => {
  test("a new queue offers the three rules, manual chosen, and a cap of 0, in each language", () => {
    const en = modal("en");
    expect(en).toContain("Assignment");
    expect(en).toContain('<option value="manual" selected="">Manual: an agent accepts</option>');
    expect(en).toContain("Round-robin: online agents in turn");
    expect(en).toContain("Least busy: the online agent with the fewest open tickets");
    expect(en).toMatch(/Max open tickets per agent \(0 = no limit\)<\/label><input[^>]*type="number"[^>]*value="0"/);
    expect(modal("pt")).toContain("Rodízio: atendentes online, um de cada vez");
    expect(modal("es")).toContain("Menos ocupado: el agente en línea con menos tickets abiertos");
  });
});
