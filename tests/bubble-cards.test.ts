import { describe, expect, test } from "bun:test";
import { coordinatesOf, vcardOf } from "../islands/chat/BubbleCards";

describe("location and contact cards", () => {
  test("a WhatsApp location's coordinates come from its text, never from the thumbnail before it", () => {
    const body =
      "data:image/png;base64,iVBORw0KGgo12,34|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|-23.5505, -46.6333";
    expect(coordinatesOf(body)).toEqual({ lat: -23.5505, lng: -46.6333 });
  });

  test("a plain 'lat,lng' location is read, and text without coordinates gives none", () => {
    expect(coordinatesOf("38.7223,-9.1393")).toEqual({ lat: 38.7223, lng: -9.1393 });
    expect(coordinatesOf("somewhere nice")).toBeNull();
  });

  test("a vCard gives its name and WhatsApp number, or the digits of its phone when it has no WhatsApp id", () => {
    expect(vcardOf("BEGIN:VCARD\nFN:Ana Souza\nTEL;type=CELL;waid=5511922223333:+55 11 92222-3333\nEND:VCARD")).toEqual(
      {
        name: "Ana Souza",
        number: "5511922223333",
      },
    );
    expect(vcardOf("BEGIN:VCARD\nFN:Rui\nTEL:+351 912 345 678\nEND:VCARD")).toEqual({
      name: "Rui",
      number: "351912345678",
    });
  });
});
