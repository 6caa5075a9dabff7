import type { TLiteral, TOptional, TString, TUnion } from "@sinclair/typebox";
import { t, type TSchema } from "elysia";
import { type FieldRule, RULES } from "../shared/validation";

type Opts = { optional?: boolean };
/** Optional when asked, or when the rule doesn't require a value; so models derive the right static types. */
type Str<R extends FieldRule, O extends Opts> = O extends { optional: true }
  ? TOptional<TString>
  : R extends { required: true }
    ? TString
    : TOptional<TString>;

/**
 * A request-schema string built from a shared rule. The rule rides along on the schema (`rule`) so the
 * error handler answers with the field, the rule's code and its message (e.g. "Too Short!").
 */
export function str<R extends FieldRule, O extends Opts = Opts>(rule: R, opts?: O): Str<R, O> {
  const schema = t.String({
    ...(rule.required ? { minLength: 1 } : {}),
    ...(rule.min != null && rule.required ? { minLength: rule.min } : {}),
    ...(rule.max != null ? { maxLength: rule.max } : {}),
    ...(rule.email ? { format: "email" } : {}),
    ...(rule.digits
      ? { pattern: "^\\s*\\d+\\s*$" }
      : rule.pattern
        ? { pattern: patternOf(rule.pattern, rule.required) }
        : rule.required
          ? { pattern: "\\S" }
          : {}),
    rule,
  });
  return (opts?.optional || !rule.required ? t.Optional(schema) : schema) as Str<R, O>;
}

/** A rule's pattern for the request schema; like `checkField`, an optional field may also be blank. */
function patternOf(pattern: RegExp, required: boolean | undefined): string {
  return required ? pattern.source : `^\\s*$|${pattern.source}`;
}

/** The rule carried by a schema built with `str`, if any. */
export function ruleOf(schema: TSchema | undefined): FieldRule | undefined {
  return (schema as { rule?: FieldRule } | undefined)?.rule;
}

export const fields = {
  userName: <O extends Opts = Opts>(o?: O) => str(RULES.userName, o),
  email: <O extends Opts = Opts>(o?: O) => str(RULES.email, o),
  password: <O extends Opts = Opts>(o?: O) => str(RULES.password, o),
};

/**
 * One of `values`, typed as their union (a plain `t.Union` of a mapped array loses it). Unlike `t.UnionEnum` it
 * carries no default, so a field left out stays out.
 */
export function oneOf<const T extends readonly string[]>(values: T) {
  return t.Union(values.map((value) => t.Literal(value))) as unknown as TUnion<{
    -readonly [K in keyof T]: TLiteral<T[K]>;
  }>;
}

/** An id in a path parameter: digits only, turned into a number. */
export const idParam = t.Object({ id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/**
 * Ids in a query string as a JSON array (`[1,2]`, also `["1","2"]`). Elysia reports a bad item against the array
 * or the item alone, so both carry the field's name for the error answer.
 */
export const idList = (field: string) =>
  t.Optional(
    t.ArrayString(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, field }), { maxItems: 500, field }),
  );
