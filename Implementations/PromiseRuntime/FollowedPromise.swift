/// The promise a pending promise adopted first, weakly: a cycle check's link must never keep a
/// dropped chain alive.
///
/// A class holding the weak reference, not a `weak` payload in the state: a weak reference cannot
/// be copied as plain bytes, so with one in an enum case every copy of the state goes through the
/// runtime's generic value witnesses, on every chain link. The
/// box is allocated only when a promise adopts another.
public final class FollowedPromise<Promise: AnyObject & Sendable>: Sendable {
    public weak let promise: Promise?

    @inlinable
    public init(_ promise: Promise) {
        self.promise = promise
    }
}
