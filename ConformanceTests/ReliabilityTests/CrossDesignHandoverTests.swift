import APlusSuite
import DesignRegistry
import SharedPromiseTypes
import TestSupport
import Testing

// A promise of one design adopted by a promise of another receives the value through the first
// design's `Thenable` conformance (and, between FBL promises of different types, its erased
// observation). Every such handover must pass on exactly what the promise holds: the same Optional
// depth, the same instance for a class. A layer added per handover is invisible to `as?` casts,
// which see through Optionals, but grows without bound along a chain that crosses designs.

/// A class instance, which must arrive as the same object.
private final class Payload: Sendable {}

/// A class error, which must arrive as the same object.
private final class ReasonObject: Error, Sendable {}

/// A value sent through handovers, with what must be true of what arrives.
private struct SentValue: Sendable, CustomTestStringConvertible {
    let name: String
    let value: PromiseValue

    var testDescription: String { name }

    /// What arrived has the sent value's exact shape: every Optional layer, and the same object
    /// for a class instance.
    func check(_ arrived: PromiseValue, after handovers: Int, _ pair: String) {
        #expect(
            String(reflecting: arrived) == String(reflecting: value),
            "\(pair): after \(handovers) handovers, \(name) arrived as \(String(reflecting: arrived))")
        if let sent = value as? Payload {
            #expect((arrived as? Payload) === sent, "\(pair): \(name) arrived as another object")
        }
    }

    static let all: [SentValue] = [
        SentValue(name: "an Int", value: 42),
        SentValue(name: "nil", value: nil),
        SentValue(name: "a nested Optional holding nil", value: Int?.none),
        SentValue(name: "a nested Optional holding 7", value: Int?.some(7)),
        SentValue(name: "a class instance", value: Payload()),
    ]
}

/// Every ordered pair of designs: `(from, to)`.
private let designPairs: [(Design, Design)] = Design.allCases.flatMap { from in
    Design.allCases.map { to in (from, to) }
}

/// Every unordered pair of designs, a design with itself included: for the long chains. A chain
/// that alternates two designs hands over both ways, half of its links each way, so the reversed
/// pair would only swap the designs at its two ends, for millions more links in a run that is
/// short of CPU. Every ordered pair still makes one handover (`oneHandover`).
private let unorderedDesignPairs: [(Design, Design)] = designPairs.filter { from, to in
    Design.allCases.firstIndex(of: from)! <= Design.allCases.firstIndex(of: to)!
}

/// A promise of some design, with the design that made it.
private struct DesignPromise: Sendable {
    let design: Design
    let promise: any Sendable

    /// Waits (with a timeout) for the promise to settle, through its design's adapter.
    func settledResult(timeout: Duration = defaultTestTimeout) async throws -> Result<PromiseValue, any Error> {
        func wait<A: APlusAdapter>(_: A.Type) async throws -> Result<PromiseValue, any Error> {
            try await A.settledResult(promise as! A.PromiseUnderTest, timeout: timeout)
        }
        return try await wait(design.adapter)
    }
}

/// A promise of `design` resolved with `value` (a promise of any design is adopted).
private func adopting(_ value: PromiseValue, by design: Design) -> DesignPromise {
    func make<A: APlusAdapter>(_: A.Type) -> any Sendable {
        let deferred = A.deferred()
        deferred.resolve(value)
        return deferred.promise
    }
    return DesignPromise(design: design, promise: make(design.adapter))
}

/// A chain of `handovers` adoptions that alternates between `from` and `to`, starting with a
/// promise of `from` resolved with `value`; returns the last promise.
private func alternatingChain(from: Design, to: Design, handovers: Int, value: PromiseValue) -> DesignPromise {
    var tail = adopting(value, by: from)
    for index in 0..<handovers {
        tail = adopting(tail.promise, by: index.isMultiple(of: 2) ? to : from)
    }
    return tail
}

@Suite("Values handed between designs")
struct CrossDesignHandoverTests {
    @Test("one handover passes the value on as it is", arguments: designPairs)
    func oneHandover(from: Design, to: Design) async throws {
        for sent in SentValue.all {
            let arrived = try await alternatingChain(from: from, to: to, handovers: 1, value: sent.value)
                .settledResult()
            sent.check(try arrived.get(), after: 1, "\(from.rawValue) → \(to.rawValue)")
        }
    }

    @Test("10,000 handovers, both ways, pass the value on as it is", arguments: unorderedDesignPairs)
    func manyHandovers(from: Design, to: Design) async throws {
        let handovers = stressSize(10_000)
        for sent in [SentValue.all[0], SentValue.all[1], SentValue.all[2]] {
            let tail = try await offPool("building the chain", timeout: heavyTimeout) {
                alternatingChain(from: from, to: to, handovers: handovers, value: sent.value)
            }
            let arrived = try await tail.settledResult(timeout: heavyTimeout)
            sent.check(try arrived.get(), after: handovers, "\(from.rawValue) ⇄ \(to.rawValue)")
        }
    }

    @Test("a rejection's reason arrives as the same object", arguments: designPairs)
    func reasonHandover(from: Design, to: Design) async throws {
        func rejected<A: APlusAdapter>(_: A.Type, _ reason: any Error) -> any Sendable {
            A.rejected(reason)
        }
        let reason = ReasonObject()
        let arrived = try await adopting(rejected(from.adapter, reason), by: to).settledResult()
        guard case .failure(let error) = arrived else {
            Issue.record("\(from.rawValue) → \(to.rawValue): fulfilled, not rejected")
            return
        }
        #expect((error as? ReasonObject) === reason, "\(from.rawValue) → \(to.rawValue): arrived as \(error)")
    }

}

/// One pair at a time: each chain is 100,000 promises, and sixteen at once on two cores would test
/// the machine, not the designs.
@Suite("A deep chain across designs", .serialized)
struct CrossDesignDepthTests {
    @Test("a 100,000-deep chain that alternates designs settles", arguments: unorderedDesignPairs)
    func deepAlternatingChain(from: Design, to: Design) async throws {
        let depth = stressSize(100_000)
        let tail = try await offPool("building the chain", timeout: heavyTimeout) {
            alternatingChain(from: from, to: to, handovers: depth, value: 42)
        }
        let arrived = try await tail.settledResult(timeout: heavyTimeout)
        #expect(String(reflecting: try arrived.get()) == "Optional(42)")
    }
}
