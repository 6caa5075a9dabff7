// @engine each
import { describe, expect, test } from "bun:test";
import { call } from "../helpers";
import { CUSTOMER, cleanUpCloudApps, messagesSent, withTicket } from "./cloud-app";

cleanUpCloudApps();

const SHIPPED = {
  name: "shipped",
  language: "en_US",
  status: "APPROVED",
  category: "UTILITY",
  components: [
    { type: "HEADER", format: "IMAGE", example: { header_handle: ["4::aW1n"] } },
    { type: "BODY", text: "Order {{1}} is on its way." },
    {
      type: "BUTTONS",
      buttons: [
        { type: "QUICK_REPLY", text: "Stop" },
        { type: "URL", text: "Track", url: "https://track.example.com/{{1}}" },
        { type: "URL", text: "Shop", url: "https://shop.example.com" },
      ],
    },
  ],
};
const WELCOME = {
  name: "welcome",
  language: "pt_BR",
  status: "APPROVED",
  category: "MARKETING",
  components: [
    { type: "HEADER", format: "TEXT", text: "Olá {{1}}" },
    { type: "BODY", text: "Bem-vindo!" },
  ],
};

async function withParts() {
  const s = await withTicket();
  s.graph.templates.push(SHIPPED, WELCOME);
  const send = (body: object) =>
    call(s.ctx.app, "POST", `/api/messages/${s.ticket.id}/template`, { token: s.agent.token, body });
  return { ...s, send };
}

describe("template headers and URL buttons", () => {
  test("templates list the header that takes a value and the URL buttons that end in a placeholder", async () => {
    const { ctx, id, agent } = await withParts();
    const res = await call(ctx.app, "GET", `/api/whatsapp/${id}/templates`, { token: agent.token });
    const byName = Object.fromEntries(res.json.map((t: { name: string }) => [t.name, t]));
    expect(byName.shipped).toMatchObject({
      header: { type: "image" },
      variables: 1,
      urlButtons: [{ index: 1, text: "Track", url: "https://track.example.com/{{1}}" }],
    });
    expect(byName.welcome).toMatchObject({ header: { type: "text", text: "Olá {{1}}" }, variables: 0 });
    expect(byName.order_update.header).toBeUndefined();
  });

  test("a media header is sent by its link and a URL button's value at the button's position", async () => {
    const { graph, send } = await withParts();
    const res = await send({
      name: "shipped",
      language: "en_US",
      parameters: ["#42"],
      header: "https://cdn.example.com/box.jpg",
      buttons: ["42"],
    });
    expect(res.status).toBe(200);
    expect(messagesSent(graph).at(-1)!.body).toMatchObject({
      to: CUSTOMER,
      type: "template",
      template: {
        name: "shipped",
        components: [
          { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.example.com/box.jpg" } }] },
          { type: "body", parameters: [{ type: "text", text: "#42" }] },
          { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "42" }] },
        ],
      },
    });
    const text = await send({ name: "welcome", language: "pt_BR", parameters: [], header: "Carla" });
    expect(text.status).toBe(200);
    expect(messagesSent(graph).at(-1)!.body).toMatchObject({
      template: { components: [{ type: "header", parameters: [{ type: "text", text: "Carla" }] }] },
    });
  });

  test("header and button values are checked against the template's parts", async () => {
    const { graph, send } = await withParts();
    const shipped = { name: "shipped", language: "en_US", parameters: ["#42"] };
    const link = "https://cdn.example.com/box.jpg";
    const refusals = [
      [{ ...shipped, buttons: ["42"] }, "header", "required"],
      [{ ...shipped, header: "box.jpg", buttons: ["42"] }, "header", "invalid"],
      [{ ...shipped, header: link }, "buttons", "invalid"],
      [{ ...shipped, header: link, buttons: ["42", "43"] }, "buttons", "invalid"],
      [{ name: "order_update", language: "pt_BR", parameters: ["a", "b"], header: "x" }, "header", "invalid"],
    ] as const;
    for (const [body, field, rule] of refusals) {
      const res = await send(body);
      expect([res.status, res.json.field, res.json.rule]).toEqual([400, field, rule]);
    }
    expect(messagesSent(graph)).toEqual([]);
  });
});
