import PromiseRuntime

/// What the resolution procedure does with a value: the one place that looks at a dynamic
/// value's type (Promises/A+ 2.3, with AY's rules for `nil`, `Void` and optionals).
///
/// The order of the checks is the rule: an ``AYPromise`` is adopted; any other `Thenable` is
/// assimilated (so a thenable that is also an `Error` is assimilated); an error value rejects (an
/// `NSError` or an `Error` Foundation does not bridge: `objectiveCRejection(in:)`); anything else
/// fulfils, with `nil` for `nil` at any depth of optionals and for `Void`.
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
        if ayPlainTypes.contains(type(of: value)) {
            self = .fulfil(value)
            return
        }
        let normal = AYResolution.normalize(value)
        if let promise = normal as? AYPromise {
            self = .adopt(promise)
        } else if let thenable = normal as? any Thenable {
            self = .assimilate(thenable)
        } else if let normal, let error = objectiveCRejection(in: normal) {
            // The original's rule: a value rejects if it is an `NSError` in Objective-C, so a
            // `String` made an `Error` for `throw "message"` still fulfils.
            self = .reject(error)
        } else {
            if let normal { ayPlainTypes.remember(type(of: normal)) }
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

/// The types AY's resolution procedure found plain (not a promise, a thenable, an error, `Void`
/// or an optional): their values fulfil without a cast (see `PlainTypeCache`).
let ayPlainTypes = PlainTypeCache()
