/**
 * The form field rules as data, with their visible messages. The server builds its request schemas
 * from them and the UI forms check the same rules, so both say the same thing.
 */

/** What a field failed, as a stable code: clients translate the code (with the field), never the message. */
export const RULE_CODES = [
  "required",
  "min",
  "max",
  "email",
  "digits",
  "pattern",
  "color",
  "time",
  "invalid",
  "date",
  "future",
  "depth",
  "phone",
  "unique",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** Each rule's message as the product words it, answered next to the code for clients that show it as is. */
export const RULE_MESSAGES: Record<RuleCode, string> = {
  required: "Required",
  min: "Too Short!",
  max: "Too Long!",
  email: "Invalid email",
  digits: "Invalid number format. Only numbers is allowed.",
  pattern: "Invalid value",
  color: "Invalid colour",
  time: "Invalid time (HH:mm)",
  /** A value of the wrong type or outside the allowed ones. */
  invalid: "Invalid value",
  date: "Invalid date",
  future: "A data deve ser no futuro",
  /** Chatbot options nested too deep. */
  depth: "Too deep",
  phone: "Número inválido",
  /** The only uniqueness checked per field is the user email. */
  unique: "An user with this email already exists.",
};

export interface FieldRule {
  required?: boolean;
  min?: number;
  max?: number;
  email?: boolean;
  /** Only digits (after the caller removed formatting). */
  digits?: boolean;
  pattern?: RegExp;
  /** The code a `pattern` mismatch answers with (`pattern` unless the pattern has its own meaning). */
  patternRule?: RuleCode;
  /** This field's own wording of some rules, where the product words them differently. */
  messages?: Partial<Record<RuleCode, string>>;
}

/** A field's failed rule and its message. */
export interface FieldProblem {
  rule: RuleCode;
  message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The problem of `value` under `rule`, or null when it is valid. Strings are checked trimmed. */
export function checkField(rule: FieldRule, value: unknown): FieldProblem | null {
  const fail = (code: RuleCode): FieldProblem => ({
    rule: code,
    message: rule.messages?.[code] ?? RULE_MESSAGES[code],
  });
  const text = value == null ? "" : String(value);
  const trimmed = text.trim();
  if (trimmed === "") return rule.required ? fail("required") : null;
  if (rule.min != null && trimmed.length < rule.min) return fail("min");
  if (rule.max != null && text.length > rule.max) return fail("max");
  if (rule.email && !EMAIL.test(trimmed)) return fail("email");
  if (rule.digits && !/^\d+$/.test(trimmed)) return fail("digits");
  if (rule.pattern && !rule.pattern.test(trimmed)) return fail(rule.patternRule ?? "pattern");
  return null;
}

/** Checks every field of a form; returns field → problem for the invalid ones. */
export function checkForm<K extends string>(
  rules: Record<K, FieldRule>,
  values: Partial<Record<K, unknown>>,
): Partial<Record<K, FieldProblem>> {
  const problems: Partial<Record<K, FieldProblem>> = {};
  for (const key of Object.keys(rules) as K[]) {
    const problem = checkField(rules[key], values[key]);
    if (problem) problems[key] = problem;
  }
  return problems;
}

const SHORT_MESSAGE = { min: "Mensagem muito curta", required: "Obrigatório" };
/** Colours end up in style attributes: only `#rgb` or `#rrggbb`, never `url(...)` or other CSS. */
const COLOR = { pattern: /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, patternRule: "color" } as const;
/** A work hour, `HH:mm` on a 24-hour clock. */
export const HOUR_RULE = { pattern: /^([01]\d|2[0-3]):[0-5]\d$/, patternRule: "time" } as const satisfies FieldRule;

export const RULES = {
  userName: { required: true, min: 2, max: 50 },
  email: { required: true, email: true, max: 320 },
  password: { required: true, min: 5, max: 50 },
  loginEmail: { required: true, max: 320 },
  loginPassword: { required: true, max: 200 },
  connectionName: { required: true, min: 2, max: 50 },
  contactName: { required: true, min: 2, max: 50 },
  contactNumber: { required: true, min: 8, max: 50 },
  contactEmail: { email: true, max: 320 },
  quickAnswerShortcut: { required: true, min: 2, max: 15 },
  quickAnswerMessage: { required: true, min: 8, max: 30000 },
  queueName: { required: true, min: 2, max: 50 },
  queueColor: { required: true, min: 3, max: 9, ...COLOR },
  chatbotName: { required: true, min: 4, max: 100 },
  scheduleBody: { required: true, min: 5, max: 30000, messages: SHORT_MESSAGE },
  scheduleSendAt: { required: true, messages: { required: "Obrigatório" } },
  tagName: { required: true, min: 3, max: 50, messages: SHORT_MESSAGE },
  tagColor: { max: 7, ...COLOR },
  bulkField: { required: true },
} as const satisfies Record<string, FieldRule>;

/** A typed phone number without its formatting (spaces, dashes, dots, parentheses and a leading +). */
export function cleanNumber(number: string): string {
  return number.replace(/[\s\-().+]/g, "");
}

/**
 * Each form's fields and the rule both sides check them with: the server's request schemas and the islands'
 * inline messages read the same entry. The contact number is checked after `cleanNumber`.
 */
export const FORM_RULES = {
  contact: { name: RULES.contactName, number: { ...RULES.contactNumber, digits: true }, email: RULES.contactEmail },
  quickAnswer: { shortcut: RULES.quickAnswerShortcut, message: RULES.quickAnswerMessage },
  schedule: { body: RULES.scheduleBody, sendAt: RULES.scheduleSendAt },
  tag: { name: RULES.tagName, color: RULES.tagColor },
  connection: { name: RULES.connectionName },
  queue: { name: RULES.queueName, color: RULES.queueColor },
  user: { name: RULES.userName, email: RULES.email, password: RULES.password },
  signup: { name: RULES.userName, email: RULES.email, password: RULES.password },
  login: { email: RULES.loginEmail, password: RULES.loginPassword },
} as const satisfies Record<string, Record<string, FieldRule>>;
