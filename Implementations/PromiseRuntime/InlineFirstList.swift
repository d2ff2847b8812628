/// A list that stores its first element inline and the rest in an array: a promise's
/// observers, where one observer (a single `then`) is by far the common case and an array would
/// be one heap allocation per pending promise.
///
/// It keeps registration order. Designs store it in their state and hand it out of the lock to
/// tell the observers; mutating it never copies an array that is not uniquely referenced.
@frozen
public struct InlineFirstList<Element>: Sequence {
    @usableFromInline
    enum Storage {
        case empty
        case one(Element)
        case many([Element])
    }

    @usableFromInline var storage: Storage

    /// An empty list.
    @inlinable
    public init() {
        storage = .empty
    }

    /// Whether the list has no element.
    @inlinable
    public var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// The number of elements.
    @inlinable
    public var count: Int {
        switch storage {
        case .empty: return 0
        case .one: return 1
        case .many(let elements): return elements.count
        }
    }

    /// Adds `element` at the end.
    @inlinable
    public mutating func append(_ element: Element) {
        switch storage {
        case .empty:
            storage = .one(element)
        case .one(let first):
            storage = .many([first, element])
        case .many(var elements):
            storage = .empty  // so that `elements` is the array's only reference and grows in place
            elements.append(element)
            storage = .many(elements)
        }
    }

    /// Calls `body` on each element in order: a loop, never recursion, and without the iterator's
    /// index checks (this is how a settling promise calls its observers).
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        switch storage {
        case .empty: return
        case .one(let element): try body(element)
        case .many(let elements): for element in elements { try body(element) }
        }
    }

    /// The elements for which `isIncluded` holds, in order.
    @inlinable
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> InlineFirstList<Element> {
        var kept = InlineFirstList()
        for element in self where try isIncluded(element) { kept.append(element) }
        return kept
    }

    /// Iterates in order.
    @frozen
    public struct Iterator: IteratorProtocol {
        @usableFromInline let storage: Storage
        @usableFromInline var index = 0

        @inlinable
        init(_ storage: Storage) {
            self.storage = storage
        }

        @inlinable
        public mutating func next() -> Element? {
            defer { index += 1 }
            switch storage {
            case .empty: return nil
            case .one(let element): return index == 0 ? element : nil
            case .many(let elements): return index < elements.count ? elements[index] : nil
            }
        }
    }

    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(storage)
    }
}

extension InlineFirstList: Sendable where Element: Sendable {}
extension InlineFirstList.Storage: Sendable where Element: Sendable {}
extension InlineFirstList.Iterator: Sendable where Element: Sendable {}
