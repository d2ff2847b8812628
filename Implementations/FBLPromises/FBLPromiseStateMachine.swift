public import PromiseRuntime

/// The state machine behind ``FBLPromise``: what the original keeps in `_state`, `_value`,
/// `_error` and `_observers` under `@synchronized(self)`, as the settle-once machine AY shares
/// (`SettleOnce`: pending with observers, settled once, observers handed out in order outside the
/// lock).
///
/// The original's fourth field, `_pendingObjects`, only keeps google's Swift wrapper objects alive
/// while their Objective-C promise is pending; here every observer closure captures what it needs
/// strongly, so there is nothing to keep.
///
/// The followed promise is typed `any AnyObject & Sendable`, not `FBLPromise<Value>`: a promise's
/// `deinit` runs unspecialised and looks up its state's type to destroy it, and with
/// `FBLPromise<Value>` in that type it looked up the promise's class too, one generic-metadata
/// lookup per freed promise (about 300 instructions of a 5,100-instruction chain link,
/// Reports/performance.md). Only ``FBLPromise/resolve(_:on:)-(FBLPromise<Value>,_)`` records one,
/// always an `FBLPromise<Value>`.
@usableFromInline
typealias FBLPromiseStateMachine<Value: Sendable> = SettleOnce<Value, any AnyObject & Sendable>
