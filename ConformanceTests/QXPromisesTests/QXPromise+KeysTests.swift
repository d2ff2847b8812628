import Dispatch
import QXPromises
import Synchronization
import TestSupport
import Testing

/// A promise's four observable keys, kept in the promise's own state under its one lock: which
/// observers are told what, and what an observation holds.
@Suite("QX keys")
struct QXPromiseKeysTests {
    @Test("value (or error) and state change together: an observer of either reads the settled promise")
    func valueAndStateChangeTogether() {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let seen = Recorder<String>()
        let token = promise.observe(\.value, options: [.old, .new]) { promise, change in
            seen.record("value \(change.newValue as? Int ?? -1) state \(promise.state)")
        }
        resolver.fulfill(4)
        #expect(seen.all == ["value 4 state fulfilled"])
        withExtendedLifetime(token) {}
    }

    @Test("an observer of the error key is told a rejection, and not a fulfilment")
    func errorKey() {
        let seen = Recorder<String>()
        let (rejected, rejecter) = QXPromise.pending(on: .global())
        let (fulfilled, fulfiller) = QXPromise.pending(on: .global())
        let tokens = [rejected, fulfilled].map { promise in
            promise.observe(\.error, options: [.new]) { _, change in
                seen.record("error \((change.newValue ?? nil) as? TestError == TestError(2))")
            }
        }
        fulfiller.fulfill(1)
        rejecter.reject(TestError(2))
        #expect(seen.all == ["error true"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a key path derived from a key (progress's proportion) is told each change it may depend on")
    func derivedKeyPath() {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let proportions = Recorder<Double>()
        let states = Recorder<QXPromiseState>()
        let token = promise.observe(\.progress?.proportion, options: [.initial, .new]) { promise, change in
            proportions.record((change.newValue ?? nil) ?? -1)
            states.record(promise.state)
        }
        resolver.progress(0.25)
        resolver.progress(0.5)
        resolver.fulfill(1)
        // The initial notification (no progress yet), two reports, then the settlement, which
        // leaves the proportion as it was.
        #expect(proportions.all == [-1, 0.25, 0.5, 0.5])
        #expect(states.all == [.pending, .pending, .pending, .fulfilled])
        withExtendedLifetime(token) {}
    }

    @Test("an observer of progress is not told the settlement (progress does not change then)")
    func progressObserverNotToldSettlement() {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let told = Recorder<Double>()
        let token = promise.observe(\.progress, options: [.new]) { _, change in
            told.record((change.newValue ?? nil)?.proportion ?? -1)
        }
        resolver.progress(0.5)
        resolver.fulfill(1)
        resolver.progress(0.75)  // ignored: settled
        #expect(told.all == [0.5])
        withExtendedLifetime(token) {}
    }

    @Test("ending an observation frees its handler at once, even while the token is kept")
    func invalidateFreesTheHandler() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let (token, captured) = Self.observationCapturingAnObject(of: promise)
        #expect(captured.object != nil)
        token.invalidate()
        #expect(captured.object == nil, "the handler, and what it captured, outlived the observation")
        #expect(!token.isValid)
        #expect(promise.observerCount == 0)
        resolver.fulfill(1)
    }

    @Test("a settled promise's links and handlers stop observing it; observations made with observe stay until ended")
    func observersAfterSettlement() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let link = promise.then(on: .global()) { $0 }
        let token = promise.observe(\.state, options: [.new]) { _, _ in }
        #expect(promise.observerCount == 2)
        resolver.fulfill(1)
        #expect(promise.observerCount == 1)
        #expect(token.isValid)
        token.invalidate()
        #expect(promise.observerCount == 0)
        #expect(try await value(of: link) as? Int == 1)
    }

    @Test("an observation of a promise that nothing can settle any more ends: its keys can never change")
    func abandonedPromiseEndsObservations() {
        var (promise, resolver): (QXPromise, QXResolver?) = QXPromise.pending(on: .global())
        let token = promise.observe(\.state, options: [.new]) { _, _ in }
        #expect(token.isValid)
        resolver = nil
        #expect(!token.isValid)
        let late = promise.observe(\.state, options: [.initial, .new]) { _, _ in }
        #expect(!late.isValid)
        withExtendedLifetime(resolver) {}
    }

    @Test("prior: an observer of state is told before the promise settles, with the keys from before")
    func priorOnSettlement() {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let seen = Recorder<String>()
        let token = promise.observe(\.state, options: [.prior, .old, .new]) { promise, change in
            seen.record(
                "\(change.isPrior ? "prior" : "change") \(change.oldValue!) \(change.newValue.map { "\($0)" } ?? "-")")
        }
        let errorToken = promise.observe(\.error, options: [.prior]) { _, _ in seen.record("error prior") }
        resolver.fulfill(1)
        // The error key does not change on fulfilment: no prior for it.
        #expect(seen.all == ["prior pending -", "change pending fulfilled"])
        withExtendedLifetime((token, errorToken)) {}
    }

    @Test("an observation of a promise nothing can settle still gets its initial notification, then ends")
    func abandonedPromiseSendsInitial() {
        var (promise, resolver): (QXPromise, QXResolver?) = QXPromise.pending(on: .global())
        resolver = nil
        let initial = Recorder<QXPromiseState>()
        let token = promise.observe(\.state, options: [.initial, .new]) { _, change in
            initial.record(change.newValue!)
        }
        #expect(initial.all == [.pending])
        #expect(!token.isValid)
        withExtendedLifetime(resolver) {}
    }

    @Test("a block that will not run is freed outside the link's lock: what it captured may read the link")
    func unrunBlockFreedOutsideTheLock() async throws {
        let (source, resolver) = QXPromise.pending(on: .global())
        let link = Self.linkWhoseCatchBlockAloneHoldsAReader(after: source)
        resolver.fulfill(1)
        // Freed under the link's lock, the reader's deinit would take that lock again and hang.
        #expect(try await value(of: link) as? Int == 1)
    }

    /// A `catch` link whose block alone holds an object that reads the link's state when freed.
    private static func linkWhoseCatchBlockAloneHoldsAReader(after source: QXPromise) -> QXPromise {
        let reader = ReadsStateWhenFreed()
        let link = source.catch(on: .global()) { _ in
            withExtendedLifetime(reader) {}
            return nil
        }
        reader.promise.withLock { $0 = link }
        return link
    }

    /// Observes `promise` with a handler that captures an object; returns the token and the
    /// object, held weakly (a local would keep it alive to the end of the test in a debug build).
    private static func observationCapturingAnObject(of promise: QXPromise) -> (QXObservation, Weak<CapturedObject>) {
        let captured = CapturedObject()
        let token = promise.observe(\.state, options: [.new]) { _, _ in withExtendedLifetime(captured) {} }
        return (token, Weak(captured))
    }
}

/// Reads its promise's state from its `deinit`.
final class ReadsStateWhenFreed: Sendable {
    let promise = Mutex<QXPromise?>(nil)
    deinit {
        _ = promise.withLock { $0?.state }
    }
}
