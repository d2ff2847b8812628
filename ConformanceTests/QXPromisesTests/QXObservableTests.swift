import Dispatch
import QXPromises
import TestSupport
import Testing

/// A general observable, unrelated to promises, to test the component on its own.
final class Thermometer: QXSettableObservable {
    struct Properties: Sendable {
        var degrees = 20
        var label = "room"
    }
    let observationCenter = QXObservationCenter<Thermometer, Properties>(Properties())
}

/// A change as the tests record it.
struct Seen: Equatable, Sendable, CustomStringConvertible {
    let kind: QXObservedChange<Int>.Kind
    let isPrior: Bool
    let old: Int?
    let new: Int?
    init(_ change: QXObservedChange<Int>) {
        kind = change.kind
        isPrior = change.isPrior
        old = change.oldValue
        new = change.newValue
    }
    init(_ kind: QXObservedChange<Int>.Kind, prior: Bool = false, old: Int?, new: Int?) {
        self.kind = kind
        isPrior = prior
        self.old = old
        self.new = new
    }
    var description: String {
        "\(kind)\(isPrior ? "(prior)" : "") \(old.map(String.init) ?? "-")->\(new.map(String.init) ?? "-")"
    }
}

@Suite("QX observable")
struct QXObservableTests {
    @Test("options decide which values a change carries")
    func options() {
        let thermometer = Thermometer()
        let newOnly = Recorder<Seen>()
        let oldAndNew = Recorder<Seen>()
        let neither = Recorder<Seen>()
        let tokens = [
            thermometer.observe(\.degrees, options: [.new]) { _, change in newOnly.record(Seen(change)) },
            thermometer.observe(\.degrees, options: [.old, .new]) { _, change in oldAndNew.record(Seen(change)) },
            thermometer.observe(\.degrees, options: []) { _, change in neither.record(Seen(change)) },
        ]
        thermometer.setObserved(\.degrees, to: 25)
        #expect(newOnly.all == [Seen(.setting, old: nil, new: 25)])
        #expect(oldAndNew.all == [Seen(.setting, old: 20, new: 25)])
        #expect(neither.all == [Seen(.setting, old: nil, new: nil)])
        withExtendedLifetime(tokens) {}
    }

    @Test("initial sends the current value from inside observe, never an old value")
    func initial() {
        let thermometer = Thermometer()
        thermometer.setObserved(\.degrees, to: 30)
        let seen = Recorder<Seen>()
        let token = thermometer.observe(\.degrees, options: [.initial, .old, .new]) { _, change in
            seen.record(Seen(change))
        }
        #expect(seen.all == [Seen(.initial, old: nil, new: 30)])
        thermometer.setObserved(\.degrees, to: 31)
        #expect(seen.all == [Seen(.initial, old: nil, new: 30), Seen(.setting, old: 30, new: 31)])
        token.invalidate()
    }

    @Test("prior is sent before the value is stored, with the old value only")
    func prior() {
        let thermometer = Thermometer()
        let seen = Recorder<Seen>()
        let storedAtPrior = Recorder<Int>()
        let token = thermometer.observe(\.degrees, options: [.prior, .old, .new]) { thermometer, change in
            seen.record(Seen(change))
            if change.isPrior { storedAtPrior.record(thermometer.observedValue(\.degrees)) }
        }
        thermometer.setObserved(\.degrees, to: 22)
        #expect(seen.all == [Seen(.setting, prior: true, old: 20, new: nil), Seen(.setting, old: 20, new: 22)])
        #expect(storedAtPrior.all == [20])
        token.invalidate()
    }

    @Test("only the observers of the changed key are told")
    func keyFiltering() {
        let thermometer = Thermometer()
        let degrees = Recorder<Int>()
        let labels = Recorder<String>()
        let tokens = [
            thermometer.observe(\.degrees) { _, change in degrees.record(change.newValue ?? -1) },
            thermometer.observe(\.label) { _, change in labels.record(change.newValue ?? "") },
        ]
        thermometer.setObserved(\.label, to: "kitchen")
        thermometer.setObserved(\.degrees, to: 18)
        #expect(degrees.all == [18])
        #expect(labels.all == ["kitchen"])
        withExtendedLifetime(tokens) {}
    }

    @Test("observers are told in registration order, synchronously, on the changing thread")
    func orderAndThread() {
        let thermometer = Thermometer()
        let calls = Recorder<String>()
        let queue = TaggedQueue("qx.observable.changer")
        let tokens = (1...5).map { index in
            thermometer.observe(\.degrees) { _, _ in calls.record("\(index):\(queue.isCurrent)") }
        }
        queue.queue.sync {
            thermometer.setObserved(\.degrees, to: 1)
            // Synchronous: every observer has run before setObserved returned.
            calls.record("returned")
        }
        #expect(calls.all == ["1:true", "2:true", "3:true", "4:true", "5:true", "returned"])
        withExtendedLifetime(tokens) {}
    }

    @Test("an invalidated observation is not told again; invalidating twice is harmless")
    func invalidate() {
        let thermometer = Thermometer()
        let seen = Recorder<Int>()
        let token = thermometer.observe(\.degrees) { _, change in seen.record(change.newValue ?? -1) }
        thermometer.setObserved(\.degrees, to: 1)
        #expect(token.isValid)
        token.invalidate()
        token.invalidate()
        #expect(!token.isValid)
        thermometer.setObserved(\.degrees, to: 2)
        #expect(seen.all == [1])
        #expect(thermometer.observationCenter.observerCount == 0)
    }

    @Test("freeing the token ends the observation")
    func tokenDeinit() {
        let thermometer = Thermometer()
        let seen = Recorder<Int>()
        var token: QXObservation? = thermometer.observe(\.degrees) { _, change in seen.record(change.newValue ?? -1) }
        thermometer.setObserved(\.degrees, to: 1)
        #expect(token != nil)
        token = nil
        thermometer.setObserved(\.degrees, to: 2)
        #expect(seen.all == [1])
    }

    @Test("an observer can remove itself during a notification")
    func removeSelfDuringNotification() {
        let thermometer = Thermometer()
        let seen = Recorder<Int>()
        let holder = Recorder<QXObservation>()
        holder.record(
            thermometer.observe(\.degrees) { _, change in
                seen.record(change.newValue ?? -1)
                holder.all.first?.invalidate()
            }
        )
        thermometer.setObserved(\.degrees, to: 1)
        thermometer.setObserved(\.degrees, to: 2)
        #expect(seen.all == [1])
    }

    @Test("an observer removed by an earlier one during a notification is not told of it")
    func removeOtherDuringNotification() {
        let thermometer = Thermometer()
        let calls = Recorder<String>()
        let second = Recorder<QXObservation>()
        let first = thermometer.observe(\.degrees) { _, _ in
            calls.record("first")
            second.all.first?.invalidate()
        }
        second.record(thermometer.observe(\.degrees) { _, _ in calls.record("second") })
        let third = thermometer.observe(\.degrees) { _, _ in calls.record("third") }
        thermometer.setObserved(\.degrees, to: 1)
        #expect(calls.all == ["first", "third"])
        withExtendedLifetime([first, third]) {}
    }

    @Test("an observer added during a notification is told of later changes only")
    func addDuringNotification() {
        let thermometer = Thermometer()
        let late = Recorder<Int>()
        let added = Recorder<QXObservation>()
        let token = thermometer.observe(\.degrees) { thermometer, _ in
            guard added.count == 0 else { return }
            added.record(thermometer.observe(\.degrees) { _, change in late.record(change.newValue ?? -1) })
        }
        thermometer.setObserved(\.degrees, to: 1)
        #expect(late.all.isEmpty)
        thermometer.setObserved(\.degrees, to: 2)
        #expect(late.all == [2])
        withExtendedLifetime(token) {}
    }

    @Test("a handler may change the object it observes (no lock is held)")
    func reentrantChange() {
        let thermometer = Thermometer()
        let labels = Recorder<String>()
        let tokens = [
            thermometer.observe(\.degrees) { thermometer, change in
                thermometer.setObserved(\.label, to: "at \(change.newValue ?? -1)")
            },
            thermometer.observe(\.label) { _, change in labels.record(change.newValue ?? "") },
        ]
        thermometer.setObserved(\.degrees, to: 5)
        #expect(labels.all == ["at 5"])
        #expect(thermometer.observedValue(\.label) == "at 5")
        withExtendedLifetime(tokens) {}
    }

    @Test("freeing a removed handler that holds another token of the same object does not deadlock")
    func compactionFreesOutsideTheLock() {
        let thermometer = Thermometer()
        let seen = Recorder<Int>()
        let (first, second) = Self.observerHoldingAnotherToken(of: thermometer, seen: seen)
        // Invalidating two of three entries compacts them away; freeing the first one's handler
        // frees the token it holds, whose deinit removes its observation from the same center.
        first.invalidate()
        second.invalidate()
        thermometer.setObserved(\.degrees, to: 1)
        #expect(seen.all.isEmpty)
        #expect(thermometer.observationCenter.observerCount == 0)
    }

    /// Registers an observer whose handler alone holds the token of a third observation.
    private static func observerHoldingAnotherToken(
        of thermometer: Thermometer,
        seen: Recorder<Int>
    ) -> (QXObservation, QXObservation) {
        let holder = Recorder<QXObservation>()
        let first = thermometer.observe(\.label) { _, _ in _ = holder.count }
        let second = thermometer.observe(\.label) { _, _ in }
        holder.record(thermometer.observe(\.degrees) { _, change in seen.record(change.newValue ?? -1) })
        return (first, second)
    }

    @Test("a token does not keep the observed object alive")
    func tokenIsWeak() {
        var thermometer: Thermometer? = Thermometer()
        let weakThermometer = Weak(thermometer)
        let token = thermometer!.observe(\.degrees) { _, _ in }
        thermometer = nil
        #expect(weakThermometer.object == nil)
        token.invalidate()
    }

    @Test("observers added from many threads while the value changes never miss the last value")
    func concurrentObserversAndChanges() async throws {
        let thermometer = Thermometer()
        let observers = 64
        let changes = 2_000
        let lastSeen = (0..<observers).map { _ in Recorder<Int>() }
        let tokens = Recorder<QXObservation>()
        let changer = DispatchQueue(label: "qx.observable.changes")
        try await waitUntil("every change") { done in
            changer.async {
                for degrees in 1...changes { thermometer.setObserved(\.degrees, to: degrees) }
                done()
            }
            DispatchQueue.concurrentPerform(iterations: observers) { index in
                tokens.record(
                    thermometer.observe(\.degrees, options: [.initial, .new]) { _, change in
                        lastSeen[index].record(change.newValue ?? -1)
                    }
                )
            }
        }
        // Each observer registered either before a change (and was told of it) or after it (and its
        // initial value already included it), so every one has seen the final value.
        for recorder in lastSeen {
            #expect(recorder.all.contains(changes))
        }
        #expect(thermometer.observationCenter.observerCount == observers)
        for token in tokens.all { token.invalidate() }
        #expect(thermometer.observationCenter.observerCount == 0)
    }

    @Test("a user's observable can be settable; a promise's keys are read-and-observe only")
    func promiseKeysAreNotSettable() async throws {
        let thermometer = Thermometer()
        #expect(Self.isSettable(thermometer))
        let (promise, resolver) = QXPromise.pending(on: .global())
        // `promise.setObserved(\.state, to: .fulfilled)` does not compile: QXPromise is not a
        // QXSettableObservable (it has no center to set through: its keys live in its own state).
        #expect(!Self.isSettable(promise))
        // Reading and observing still work.
        let states = Recorder<QXPromiseState>()
        let token = promise.observe(\.state, options: [.initial, .new]) { _, change in
            if let state = change.newValue { states.record(state) }
        }
        resolver.fulfill(1)
        try await eventually("the settled state to be observed") { states.all == [.pending, .fulfilled] }
        #expect(promise.observedValue(\.value) as? Int == 1)
        token.invalidate()
    }

    /// Whether `object`'s type adopts `QXSettableObservable`, asked at run time.
    private static func isSettable(_ object: some AnyObject) -> Bool {
        object is any QXSettableObservable
    }
}
