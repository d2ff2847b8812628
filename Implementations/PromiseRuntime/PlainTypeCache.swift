public import Synchronization

/// Remembers the types whose values a resolution procedure found plain, so that it settles with
/// later values of those types without casting them again: "decide once per type, not per value".
///
/// A resolution procedure asks of every value whether it is a promise to adopt, a thenable to
/// assimilate or an error to reject with. Each question is a dynamic cast, and a cast that fails
/// is not free: the Swift runtime looks the conformance up in a process-wide table, and a cast of a
/// value type to a class first bridges it to Foundation (an `Int` becomes an `NSNumber`). A chain
/// link asks these questions of every value it hands on, so they would be a large share of its
/// work. For most types the answer depends on the type alone, so a design asks once per type and
/// keeps the answer here.
///
/// ## What may be remembered
/// A design calls ``remember(_:)`` only after its own checks found a value plain. This cache keeps
/// only structs, enums (not `Optional`) and tuples, and not `AnyHashable`: for those the checks'
/// answers depend on the type alone. An optional holds `nil` or a value, an `AnyHashable` or a
/// Foundation box can hold a promise, and a class's value can be of a subclass, so those are
/// always checked. A conformance added later by a dynamically loaded library is not seen for a
/// type already remembered; the designs' values are the program's own, so that is accepted.
///
/// ## Threading
/// Lock-free: eight slots, each one atomic word holding the address of the last plain type that
/// hashed to it. Only plain types are ever stored, so a reader never gets a wrong answer, only a
/// missing one (a collision, or two threads storing at once), which costs the casts again.
///
/// Each design keeps its own cache, because "plain" is the design's own rule (one design may turn
/// a `Void` into `nil` where another keeps it).
public struct PlainTypeCache: ~Copyable, Sendable {
    // Eight stored atomics, not an `InlineArray`: that type needs macOS 26 / iOS 26, above the
    // platforms the package declares.
    @usableFromInline let slot0 = Atomic<UInt>(0)
    @usableFromInline let slot1 = Atomic<UInt>(0)
    @usableFromInline let slot2 = Atomic<UInt>(0)
    @usableFromInline let slot3 = Atomic<UInt>(0)
    @usableFromInline let slot4 = Atomic<UInt>(0)
    @usableFromInline let slot5 = Atomic<UInt>(0)
    @usableFromInline let slot6 = Atomic<UInt>(0)
    @usableFromInline let slot7 = Atomic<UInt>(0)

    /// An empty cache.
    public init() {}

    /// Whether values of `type` were found plain before.
    @inlinable
    public func contains(_ type: Any.Type) -> Bool {
        let key = Self.key(of: type)
        return load(slot: Self.slot(for: key)) == key
    }

    /// Records that values of `type` are plain, if the answer depends on the type alone (see
    /// above); otherwise does nothing.
    public func remember(_ type: Any.Type) {
        guard Self.isRememberable(type) else { return }
        let key = Self.key(of: type)
        switch Self.slot(for: key) {
        case 0: slot0.store(key, ordering: .relaxed)
        case 1: slot1.store(key, ordering: .relaxed)
        case 2: slot2.store(key, ordering: .relaxed)
        case 3: slot3.store(key, ordering: .relaxed)
        case 4: slot4.store(key, ordering: .relaxed)
        case 5: slot5.store(key, ordering: .relaxed)
        case 6: slot6.store(key, ordering: .relaxed)
        default: slot7.store(key, ordering: .relaxed)
        }
    }

    @inlinable
    func load(slot: Int) -> UInt {
        switch slot {
        case 0: return slot0.load(ordering: .relaxed)
        case 1: return slot1.load(ordering: .relaxed)
        case 2: return slot2.load(ordering: .relaxed)
        case 3: return slot3.load(ordering: .relaxed)
        case 4: return slot4.load(ordering: .relaxed)
        case 5: return slot5.load(ordering: .relaxed)
        case 6: return slot6.load(ordering: .relaxed)
        default: return slot7.load(ordering: .relaxed)
        }
    }

    @inlinable
    static func key(of type: Any.Type) -> UInt {
        UInt(bitPattern: unsafeBitCast(type, to: Int.self))
    }

    @inlinable
    static func slot(for key: UInt) -> Int {
        // Metadata is at least 8-aligned; mix in higher bits so that neighbouring types spread.
        Int(truncatingIfNeeded: (key >> 3) ^ (key >> 7)) & 7
    }

    /// Structs, enums (not `Optional`, a kind of its own) and tuples, except `AnyHashable`.
    static func isRememberable(_ type: Any.Type) -> Bool {
        guard type != AnyHashable.self else { return false }
        switch TypeMetadataKind(of: type) {
        case .struct, .enum, .tuple: return true
        default: return false
        }
    }
}

/// The kind of a type, read from the word that starts every type's runtime metadata
/// (`MetadataKind` in Swift's stable ABI). It answers what no cast can: whether a type is a
/// function type of any signature, or a struct rather than an optional.
public struct TypeMetadataKind: Equatable, Sendable {
    public let rawValue: Int

    /// The kind of `type`.
    public init(of type: Any.Type) {
        rawValue = unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee
    }

    init(rawValue: Int) { self.rawValue = rawValue }

    public static let `struct` = TypeMetadataKind(rawValue: 0x200)
    public static let `enum` = TypeMetadataKind(rawValue: 0x201)
    public static let optional = TypeMetadataKind(rawValue: 0x202)
    public static let tuple = TypeMetadataKind(rawValue: 0x301)
    public static let function = TypeMetadataKind(rawValue: 0x302)
}
