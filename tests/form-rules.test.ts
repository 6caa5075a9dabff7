// @engine once
import { beforeAll, describe, expect, test } from "bun:test";
import { ruleOf } from "../src/http/fields";
import { AuthModel } from "../src/modules/auth/model";
import { ConnectionModel } from "../src/modules/connections/model";
import { ContactModel } from "../src/modules/contacts/model";
import { QuickAnswerModel } from "../src/modules/quick-answers/model";
import { QueueModel } from "../src/modules/queues/model";
import { ScheduleModel } from "../src/modules/schedules/model";
import { TagModel } from "../src/modules/tags/model";
import { UserModel } from "../src/modules/users/model";
import { checkField, cleanNumber, FORM_RULES } from "../src/shared/validation";
import { call, loginAs, makeTestApp, type TestContext } from "./helpers";

/** The request schema of each form, field by field, that the server checks a save against. */
const SERVER_SCHEMAS = {
  contact: ContactModel.create.properties,
  quickAnswer: QuickAnswerModel.create.properties,
  schedule: ScheduleModel.create.properties,
  tag: TagModel.create.properties,
  connection: ConnectionModel.create.properties,
  queue: QueueModel.create.properties,
  user: UserModel.create.properties,
  signup: AuthModel.signup.properties,
  login: AuthModel.login.properties,
};

describe("the forms check the server's rules", () => {
  test("every field a form checks inline carries the same rule in the server's request schema", () => {
    for (const [form, fields] of Object.entries(FORM_RULES)) {
      const schema = SERVER_SCHEMAS[form as keyof typeof SERVER_SCHEMAS] as Record<string, unknown>;
      for (const [field, rule] of Object.entries(fields)) {
        expect({ form, field, rule: ruleOf(schema[field] as never) }).toEqual({ form, field, rule });
      }
    }
  });

  test("the product's limits: contact number 8-50 digits, quick-answer message 8-30000, schedule body at least 5", () => {
    expect(checkField(FORM_RULES.contact.number, cleanNumber("123"))?.rule).toBe("min");
    expect(checkField(FORM_RULES.contact.number, cleanNumber("+55 (11) 98765-4321"))).toBeNull();
    expect(checkField(FORM_RULES.contact.number, "1".repeat(51))?.rule).toBe("max");
    expect(checkField(FORM_RULES.contact.number, "5511abc4321")?.rule).toBe("digits");
    expect(checkField(FORM_RULES.quickAnswer.message, "short")?.rule).toBe("min");
    expect(checkField(FORM_RULES.quickAnswer.message, "x".repeat(30001))?.rule).toBe("max");
    expect(checkField(FORM_RULES.schedule.body, "oi")).toEqual({ rule: "min", message: "Mensagem muito curta" });
    expect(checkField(FORM_RULES.schedule.sendAt, "")).toEqual({ rule: "required", message: "Obrigatório" });
  });
});

describe("the server answers a field the way the form checks it", () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await makeTestApp();
    token = (await loginAs(ctx, { profile: "admin" })).token;
  });

  test("a formatted short contact number fails the same rule on both sides", async () => {
    const number = "+55 (12) 3";
    const res = await call(ctx.app, "POST", "/api/contacts", { token, body: { name: "Rita", number } });
    expect(res.status).toBe(400);
    expect({ field: res.json.field, rule: res.json.rule }).toEqual({
      field: "number",
      rule: checkField(FORM_RULES.contact.number, cleanNumber(number))!.rule,
    });
  });

  test("a short quick-answer message fails the same rule on both sides", async () => {
    const res = await call(ctx.app, "POST", "/api/quickAnswers", {
      token,
      body: { shortcut: "pix", message: "chave" },
    });
    expect({ field: res.json.field, rule: res.json.rule }).toEqual({
      field: "message",
      rule: checkField(FORM_RULES.quickAnswer.message, "chave")!.rule,
    });
  });
});
