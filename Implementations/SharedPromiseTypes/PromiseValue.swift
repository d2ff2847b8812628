/// A value as it crosses the shared protocol: anything `Sendable`, or `nil`.
///
/// Promises/A+ is dynamically typed: a callback may return a plain value, a promise to adopt or a
/// thenable to assimilate, and only the resolution procedure tells them apart. The shared protocol
/// keeps that model so one generic suite can drive every design; each design keeps its own
/// (typed or untyped) native API beside it.
public typealias PromiseValue = (any Sendable)?
