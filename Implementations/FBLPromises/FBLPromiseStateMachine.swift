public import PromiseRuntime

/// The state machine behind ``FBLPromise``: what the original keeps in `_state`, `_value`,
/// `_error` and `_observers` under `@synchronized(self)`, as the settle-once machine AY shares
/// (`SettleOnce`: pending with observers, settled once, observers handed out in order outside the
/// lock).
///
/// The original's fourth field, `_pendingObjects`, only keeps google's Swift wrapper objects alive
/// while their Objective-C promise is pending; here every observer closure captures what it needs
/// strongly, so there is nothing to keep.
@usableFromInline
typealias FBLPromiseStateMachine<Value: Sendable> = SettleOnce<Value, FBLPromise<Value>>
