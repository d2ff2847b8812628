import PromiseInterface
import Synchronization

/// What the resolution procedure does with a value: the one place that looks at a dynamic
/// value's type (Promises/A+ 2.3, with AY's rules for `nil`, `Void` and optionals).
///
/// The order of the checks is the rule: an ``AYPromise`` is adopted; any other `Thenable` is
/// assimilated (so a thenable that is also an `Error` is assimilated); an `Error` rejects; anything
/// else fulfils, with `nil` for `nil` at any depth of optionals and for `Void`.
enum AYResolution {
    case fulfil(PromiseValue)
    case adopt(AYPromise)
    case assimilate(any Thenable)
    case reject(any Error)

    init(_ value: PromiseValue) {
        guard let value else {
            self = .fulfil(nil)
            return
        }
        // Most values are of a type seen before and found plain: no cast at all.
        if AYPlainTypes.contains(type(of: value)) {
            self = .fulfil(value)
            return
        }
        let normal = AYResolution.normalize(value)
        if let promise = normal as? AYPromise {
            self = .adopt(promise)
        } else if let thenable = normal as? any Thenable {
            self = .assimilate(thenable)
        } else if let error = normal as? any Error {
            self = .reject(error)
        } else {
            if let normal { AYPlainTypes.remember(type(of: normal)) }
            self = .fulfil(normal)
        }
    }

    /// The dynamic value model's one normal form for "no value": `nil`, a `nil` wrapped in
    /// optionals (a block typed `-> Int?` returning `nil`) and `Void` (a block with no return
    /// value, which the original turns into `nil`) all become `nil`.
    static func normalize(_ value: PromiseValue) -> PromiseValue {
        guard let value else { return nil }
        // A metatype comparison, not `value is Void`: a cast to a tuple type goes through the
        // runtime's general casting, on every block that returns nothing.
        if type(of: value) == Void.self { return nil }
        if let optional = value as? any AYOptionalBox, optional.isNilAtAnyDepth { return nil }
        return value
    }
}

/// Lets ``AYResolution/normalize(_:)`` see a `nil` hidden inside an existential.
protocol AYOptionalBox {
    var isNilAtAnyDepth: Bool { get }
}

extension Optional: AYOptionalBox {
    var isNilAtAnyDepth: Bool {
        switch self {
        case .none: return true
        case .some(let wrapped): return (wrapped as? any AYOptionalBox)?.isNilAtAnyDepth ?? false
        }
    }
}

/// The types the resolution procedure has found plain (not a promise, a thenable, an error,
/// `Void` or an optional), so that it fulfils with their values without casting them again:
/// "decide once per type, not per value".
///
/// Why it pays: AY's values are untyped, so every link's result goes through three or four
/// dynamic casts, and a cast of a value type to a class (`as? AYPromise`) first bridges it to
/// Foundation (an `Int` becomes an `NSNumber`). A profile of a chain of `Int`s spent about a fifth
/// of its time in the Swift runtime's casting and conformance lookups before this cache
/// (Reports/performance.md).
///
/// Only structs, enums and tuples are remembered: for them the answer depends on the type alone.
/// Optionals, `AnyHashable` and classes are left out, because a cast looks inside them (an
/// `AnyHashable` or a Foundation box can hold a promise, an optional holds `nil` or not).
/// Conformances added later by a dynamically loaded library are not seen for a type already
/// remembered; AY's values are the program's own, so that is accepted.
///
/// Eight slots indexed by the type's address; a slot holds the last plain type that hashed to it,
/// so a miss (a collision, or a race between two threads storing) only costs the casts again.
/// Each slot is one atomic word and only plain types are ever stored, so a reader can never see
/// a wrong answer, only a missing one.
enum AYPlainTypes {
    private static let slots = InlineArray<8, Atomic<UInt>> { _ in Atomic(0) }

    /// Whether values of `type` are known to be plain.
    static func contains(_ type: Any.Type) -> Bool {
        let key = key(of: type)
        return slots[slot(for: key)].load(ordering: .relaxed) == key
    }

    /// Records that values of `type` are plain, if the answer depends on the type alone.
    static func remember(_ type: Any.Type) {
        guard isRememberable(type) else { return }
        let key = key(of: type)
        slots[slot(for: key)].store(key, ordering: .relaxed)
    }

    private static func key(of type: Any.Type) -> UInt {
        UInt(bitPattern: unsafeBitCast(type, to: Int.self))
    }

    private static func slot(for key: UInt) -> Int {
        // Metadata is at least 8-aligned; mix in higher bits so neighbouring types spread.
        Int(truncatingIfNeeded: (key >> 3) ^ (key >> 7)) & 7
    }

    /// Structs, enums (not `Optional`) and tuples, except `AnyHashable`: the metadata kind word
    /// that starts every type's runtime metadata (Swift's stable ABI: 0x200 struct, 0x201 enum,
    /// 0x202 optional, 0x301 tuple).
    private static func isRememberable(_ type: Any.Type) -> Bool {
        guard type != AnyHashable.self else { return false }
        switch metadataKind(of: type) {
        case 0x200, 0x201, 0x301: return true
        default: return false
        }
    }
}

/// The kind word that starts every type's runtime metadata (`MetadataKind` in Swift's stable ABI).
func metadataKind(of type: Any.Type) -> Int {
    unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee
}
