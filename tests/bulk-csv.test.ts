import { describe, expect, test } from "bun:test";
import { buildBulk, withCountryCode } from "../src/shared/bulk-template";
import { parseCsv } from "../src/shared/csv";

describe("bulk data", () => {
  test("CSV: quoted fields keep separators, quotes and line breaks; BOM and CRLF are handled", () => {
    expect(parseCsv('\uFEFFphone,name\r\n11999990001,"Silva, Ana"\r\n11999990002,"Say ""hi""\nthere"\r\n\r\n')).toEqual(
      [
        ["phone", "name"],
        ["11999990001", "Silva, Ana"],
        ["11999990002", 'Say "hi"\nthere'],
      ],
    );
  });

  test("CSV: a header with semicolons makes `;` the separator", () => {
    expect(parseCsv("phone;name;city\n11999990001;Ana, Jr;Rio")).toEqual([
      ["phone", "name", "city"],
      ["11999990001", "Ana, Jr", "Rio"],
    ]);
  });

  test("phones get 55 unless longer than 11 digits and already starting with 55", () => {
    expect(withCountryCode("(11) 99999-0001")).toBe("5511999990001");
    expect(withCountryCode("5511999990001")).toBe("5511999990001");
    expect(withCountryCode("55119999")).toBe("5555119999");
  });

  test("each data line fills the template's {column} placeholders; unknown ones stay", () => {
    expect(buildBulk("Oi {Name}, {unknown}", "phone,name\n11999990001,Ana\n,Nobody\n11999990002,Bia")).toEqual([
      { phone: "5511999990001", message: "Oi Ana, {unknown}" },
      { phone: "5511999990002", message: "Oi Bia, {unknown}" },
    ]);
  });

  test("a Cloud API template's values are filled from the same columns, per line", () => {
    const template = {
      name: "offer",
      language: "pt_BR",
      parameters: ["{name}"],
      header: "{name}",
      buttons: ["{code}"],
    };
    expect(buildBulk("Oi {name}", "phone,name,code\n11999990001,Ana,A1", template)).toEqual([
      {
        phone: "5511999990001",
        message: "Oi Ana",
        template: { name: "offer", language: "pt_BR", parameters: ["Ana"], header: "Ana", buttons: ["A1"] },
      },
    ]);
  });
});
