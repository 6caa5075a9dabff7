import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { listTime } from "../islands/lib/format";
import { richText } from "../islands/lib/rich-text";

const html = (text: string) => renderToStaticMarkup(createElement("p", null, ...richText(text)));

describe("message text", () => {
  test("*bold* and ~strike~ become elements", () => {
    expect(html("a *b* c ~d~")).toBe("<p>a <strong>b</strong> c <s>d</s></p>");
  });

  test("markup in a message stays text", () => {
    expect(html('<img src=x onerror="alert(1)"> *<b>x</b>*')).toBe(
      "<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; <strong>&lt;b&gt;x&lt;/b&gt;</strong></p>",
    );
  });

  test("unpaired markers and markers across lines are left alone", () => {
    expect(html("2*3 = 6\n*not\nbold*")).toBe("<p>2*3 = 6\n*not\nbold*</p>");
  });
});

describe("list times", () => {
  test("HH:mm today, dd/MM/yyyy on other days", () => {
    const now = new Date(2026, 10, 23, 15, 0);
    expect(listTime(new Date(2026, 10, 23, 9, 5), now)).toBe("09:05");
    expect(listTime(new Date(2026, 10, 22, 23, 59), now)).toBe("22/11/2026");
  });
});
