/** `T` with intersections merged into one object, all the way down, so two spellings of one shape compare equal. */
type Plain<T> = T extends readonly (infer U)[] ? Plain<U>[] : T extends object ? { [K in keyof T]: Plain<T[K]> } : T;

/**
 * true when `A` and `B` are the same type: a field renamed, missing, optional or nullable on one side only makes
 * it false (plain assignability would let an optional field differ).
 */
export type Same<A, B> =
  (<X>() => X extends Plain<A> ? 1 : 2) extends <X>() => X extends Plain<B> ? 1 : 2 ? true : false;
