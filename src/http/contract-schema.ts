import type { Static, TSchema } from "@sinclair/typebox";
import type { Same } from "../shared/same-type";

type Agreeing<S extends TSchema, C> =
  Same<Static<S>, C> extends true ? unknown : { differsFromContract: { schema: Static<S>; contract: C } };

/**
 * A request schema checked against its contract type (src/shared/contracts): `schemaOf<NewTag>()(t.Object(...))`
 * compiles only when what the schema accepts is exactly `NewTag`. The schema validates on the server and the
 * contract types what the islands send, so a field renamed, made optional or nullable on one side only fails here.
 */
export function schemaOf<C>() {
  return <S extends TSchema>(schema: S & Agreeing<S, C>): S => schema;
}
