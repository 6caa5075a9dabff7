import { Elysia, type ValidationError } from "elysia";
import type { Logger } from "../log";
import { AppError, FieldError } from "../errors";
import { checkField, type FieldProblem, RULE_MESSAGES } from "../shared/validation";
import { ruleOf } from "./fields";
import { i18nFor } from "../i18n/server";
import { requestLang } from "./request-lang";
import { FAMILY_ERROR_CODES } from "../shared/error-codes";

interface Issue {
  path?: string;
  schema?: unknown;
  value?: unknown;
}

/**
 * Turns every failure into `{"error": CODE}` with its status: AppError as declared, bad input as 400 VALIDATION
 * with the field, the rule's code and its message, unknown routes 404, and anything unexpected 500 ERR_INTERNAL
 * (logged with a request id, never with a stack in the answer).
 */
export function errorHandler(log: Logger) {
  return new Elysia({ name: "error-handler" }).onError(
    { as: "global" },
    ({ code, error: thrown, set, request, path }) => {
      // Elysia wraps whatever a body parser throws; a refusal thrown while reading the body keeps its own answer.
      const error =
        code === "PARSE" && (thrown as Error).cause instanceof AppError
          ? ((thrown as Error).cause as AppError)
          : thrown;
      if (error instanceof AppError) {
        set.status = error.status;
        if (typeof error.details?.retryAfter === "number")
          set.headers["retry-after"] = String(error.details.retryAfter);
        return { error: error.code, ...translation(error.code, request), ...error.details };
      }
      if (error instanceof FieldError) {
        set.status = 400;
        return validation(error.field, { rule: error.rule, message: error.message });
      }
      switch (code) {
        case "VALIDATION":
          set.status = 400;
          return validationAnswer(error as ValidationError);
        case "PARSE":
          set.status = 400;
          return { error: "ERR_INVALID_BODY", ...translation("ERR_INVALID_BODY", request) };
        case "NOT_FOUND":
          set.status = 404;
          return { error: "ERR_NOT_FOUND", ...translation("ERR_NOT_FOUND", request) };
        case "INVALID_COOKIE_SIGNATURE":
          set.status = 401;
          return { error: "ERR_SESSION_EXPIRED" };
      }
      const requestId = crypto.randomUUID();
      log.error("unexpected error", { requestId, method: request.method, path, error });
      set.status = 500;
      set.headers["x-request-id"] = requestId;
      return { error: "ERR_INTERNAL", ...translation("ERR_INTERNAL", request), requestId };
    },
  );
}

/**
 * `message`, the code's text in the caller's language, for codes the whaticket family's clients do not know:
 * they show an answer's `message` before its code. Our own pages translate the code themselves.
 */
function translation(code: string, request: Request): { message?: string } {
  if (FAMILY_ERROR_CODES.has(code)) return {};
  const key = `errors.${code}`;
  const i18n = i18nFor(requestLang(request));
  return i18n.exists(key) ? { message: i18n.t(key) } : {};
}

function validation(field: string | undefined, problem: FieldProblem) {
  return { error: "VALIDATION", field, rule: problem.rule, message: problem.message };
}

function validationAnswer(error: ValidationError) {
  const issues = (error.all ?? []) as Issue[];
  const issue = issues.find((i) => i.path) ?? issues[0];
  const field = fieldOf(error, issue) ?? (issue?.path?.replace(/^\//, "").replace(/\//g, ".") || undefined);
  const rule = ruleOf(issue?.schema as never);
  const problem =
    (rule && checkField(rule, issue?.value)) ||
    (issue && issue.value === undefined
      ? { rule: "required" as const, message: RULE_MESSAGES.required }
      : { rule: "invalid" as const, message: RULE_MESSAGES.invalid });
  return validation(field, problem);
}

/** The field a schema names for itself (see the tickets list's id arrays), for errors Elysia reports without a path. */
function fieldOf(error: ValidationError, issue: Issue | undefined): string | undefined {
  const validator = error.validator as { schema?: { field?: unknown }; field?: unknown } | undefined;
  const field =
    validator?.schema?.field ?? validator?.field ?? (issue?.schema as { field?: unknown } | undefined)?.field;
  return typeof field === "string" ? field : undefined;
}
