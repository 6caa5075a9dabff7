import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { i18nFor } from "../src/i18n/server";
import { islandRenderer } from "../src/web/island";

describe("<Island> props", () => {
  test("are checked against the island's component and reach the client as a JSON script before the island", () => {
    const Island = islandRenderer(i18nFor("en"));
    const html = renderToStaticMarkup(<Island name="AgentTicketFind" props={{ phone: "5511" }} />);
    expect(html).toContain(
      `<script type="application/json" data-props-for="i0">{"phone":"5511"}</script><div data-island="AgentTicketFind" data-island-id="i0"`,
    );
    // The lines below must not type-check: `tsc` fails if one of them is accepted.
    const wrongType = () => (
      // @ts-expect-error ticketId is a number
      <Island name="Chat" props={{ ticketId: "1", userId: 1 }} />
    );
    // @ts-expect-error Chat cannot render without its props
    const missing = () => <Island name="Chat" />;
    // @ts-expect-error AdminTags takes no `extra` prop
    const unknown = () => <Island name="AdminTags" props={{ canEdit: true, extra: 1 }} />;
    expect([wrongType, missing, unknown].length).toBe(3);
  });
});
