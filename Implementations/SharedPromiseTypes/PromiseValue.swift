/// A value as it crosses the shared protocol: anything `Sendable`, or `nil`.
///
/// Promises/A+ is dynamically typed: a callback may return a plain value, a promise to adopt or a
/// thenable to assimilate, and only the resolution procedure tells them apart. The shared protocol
/// keeps that model so one generic suite can drive every design; each design keeps its own
/// (typed or untyped) native API beside it.
public typealias PromiseValue = (any Sendable)?

extension Optional where Wrapped == any Sendable {
    /// `value` exactly as a promise holds it, for handing it to another design.
    ///
    /// A value that already is a `PromiseValue` (the value of a promise typed `PromiseValue`, or
    /// one erased to `any Sendable`) is handed over as it is; anything else becomes
    /// `.some(value)`, keeping every Optional layer of its own. Converting a generic value to
    /// `PromiseValue` implicitly would wrap a `PromiseValue` in one more layer each time a
    /// promise of one design adopts one of another, and a chain that crosses designs would grow a
    /// layer per link.
    ///
    /// ```swift
    /// let held: PromiseValue = 42
    /// PromiseValue(handingOver: held)        // Optional(42), not Optional(Optional(42))
    /// PromiseValue(handingOver: Int?.none)   // Optional(nil): an Int? that holds nil
    /// ```
    @inlinable
    public init<Value: Sendable>(handingOver value: Value) {
        if Value.self == PromiseValue.self {
            self = unsafeBitCast(value, to: PromiseValue.self)
        } else if Value.self == (any Sendable).self {
            // The existential's dynamic type decides: open it.
            self = Self.handingOver(opened: unsafeBitCast(value, to: (any Sendable).self))
        } else {
            self = .some(value)
        }
    }

    @usableFromInline
    static func handingOver<Opened: Sendable>(opened value: Opened) -> PromiseValue {
        PromiseValue(handingOver: value)
    }
}
