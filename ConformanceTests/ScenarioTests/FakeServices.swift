import Dispatch
import PromiseRuntime
import TestSupport
import Testing

// Fake services for the scenarios: callback APIs (the shape every design wraps) whose latency,
// failure and cancellation the test controls, and which record every call in one shared log.
// Latency is queue hops or a rendezvous of several calls; no sleeps.

/// How long a fake call takes to answer.
enum Latency: Sendable {
    /// After this many hops through a global queue.
    case hops(Int)
    /// Only once `gate` has seen its expected number of calls in flight: a call answers only if
    /// the others were started beside it, so a design that ran them one after another would
    /// never answer (and the test would time out).
    case rendezvous(Rendezvous)
    /// Never answers by itself; only cancelling the call ends it.
    case never
}

/// Holds back answers until `expected` calls have arrived, then releases them all.
final class Rendezvous: Sendable {
    private struct State {
        var arrived = 0
        var waiting: [@Sendable () -> Void] = []
    }

    let expected: Int
    /// Guards the arrival count and the answers held back.
    private let state = PromiseMutex(State())

    init(expected: Int) { self.expected = expected }

    /// Runs `answer` once `expected` calls have arrived (now, if this call is the last one).
    func arrive(_ answer: @escaping @Sendable () -> Void) {
        let released = state.withLock { state -> [@Sendable () -> Void] in
            state.arrived += 1
            state.waiting.append(answer)
            guard state.arrived >= expected else { return [] }
            defer { state.waiting = [] }
            return state.waiting
        }
        for answer in released { DispatchQueue.global().async(execute: answer) }
    }
}

/// Runs `body` on `queue` after `hops` further hops through it.
func afterHops(_ hops: Int, on queue: DispatchQueue = .global(), _ body: @escaping @Sendable () -> Void) {
    queue.async {
        if hops <= 0 {
            body()
        } else {
            afterHops(hops - 1, on: queue, body)
        }
    }
}

/// One request in flight: answers once, or is cancelled (then its completion gets
/// `CancellationError`, as a cancelled `URLSessionTask` reports `cancelled`).
final class FakeCall<Output: Sendable>: Sendable {
    let name: String
    private let log: Recorder<String>
    /// Guards the completion until the call answers or is cancelled.
    private let completion: PromiseMutex<(@Sendable (Result<Output, any Error>) -> Void)?>

    init(name: String, log: Recorder<String>, completion: @escaping @Sendable (Result<Output, any Error>) -> Void) {
        self.name = name
        self.log = log
        self.completion = PromiseMutex(completion)
    }

    /// Delivers `result` unless the call already answered or was cancelled.
    fileprivate func answer(_ result: Result<Output, any Error>) {
        guard let completion = take() else { return }
        log.record("← \(name)")
        completion(result)
    }

    /// Stops the request: logs `✕ name` and completes with `CancellationError`, unless it already
    /// answered.
    func cancel() {
        guard let completion = take() else { return }
        log.record("✕ \(name)")
        completion(.failure(CancellationError()))
    }

    var isFinished: Bool { completion.withLock { $0 == nil } }

    private func take() -> (@Sendable (Result<Output, any Error>) -> Void)? {
        completion.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }
}

/// A remote endpoint: `call(input)` logs `→ name(input)`, then answers after `latency` with what
/// `reply` says (a value or an error), logging `← name(input)`.
final class FakeEndpoint<Input: Sendable & CustomStringConvertible, Output: Sendable>: Sendable {
    let name: String
    let log: Recorder<String>
    let latency: @Sendable (Input) -> Latency
    let reply: @Sendable (Input) -> Result<Output, any Error>
    /// Every call made, so that callers (or tests) can cancel the ones still in flight.
    let calls = Recorder<FakeCall<Output>>()
    /// Guards the number of calls made and the waiters for a number of calls.
    private let arrivals = PromiseMutex<(count: Int, waiters: [(count: Int, done: @Sendable () -> Void)])>((0, []))

    init(
        _ name: String,
        log: Recorder<String>,
        latency: @escaping @Sendable (Input) -> Latency = { _ in .hops(2) },
        reply: @escaping @Sendable (Input) -> Result<Output, any Error>
    ) {
        self.name = name
        self.log = log
        self.latency = latency
        self.reply = reply
    }

    /// Starts a request; `completion` runs once, on a global queue.
    @discardableResult
    func call(_ input: Input, completion: @escaping @Sendable (Result<Output, any Error>) -> Void) -> FakeCall<Output> {
        let label = "\(name)(\(input))"
        log.record("→ \(label)")
        let call = FakeCall(name: label, log: log, completion: completion)
        calls.record(call)
        let result = reply(input)
        let reached = arrivals.withLock { arrivals -> [@Sendable () -> Void] in
            arrivals.count += 1
            let count = arrivals.count
            defer { arrivals.waiters.removeAll { $0.count <= count } }
            return arrivals.waiters.filter { $0.count <= count }.map(\.done)
        }
        for done in reached { done() }
        switch latency(input) {
        case .hops(let hops): afterHops(hops) { call.answer(result) }
        case .rendezvous(let gate): gate.arrive { call.answer(result) }
        case .never: break
        }
        return call
    }

    /// Waits until `count` calls have been made (a signal, not polling).
    func waitForCalls(_ count: Int = 1) async throws {
        try await waitUntil("\(count) call(s) to \(name)") { done in
            let now = arrivals.withLock { arrivals -> Bool in
                if arrivals.count >= count { return true }
                arrivals.waiters.append((count, done))
                return false
            }
            if now { done() }
        }
    }

    /// The calls still waiting for an answer.
    var inFlight: [FakeCall<Output>] { calls.all.filter { !$0.isFinished } }
}

// MARK: - The domain of the scenarios

struct User: Sendable, Equatable, CustomStringConvertible {
    let id: String
    var description: String { id }
}

struct Contact: Sendable, Equatable, CustomStringConvertible {
    let name: String
    var description: String { name }
}

struct Avatar: Sendable, Equatable {
    let contact: String
    let pixels: String
}

struct Order: Sendable, Equatable, CustomStringConvertible {
    let id: String
    let amount: Int
    var description: String { id }
}

struct Receipt: Sendable, Equatable, CustomStringConvertible {
    let orderID: String
    var description: String { "receipt-\(orderID)" }
}

struct Confirmation: Sendable, Equatable {
    let orderID: String
    let status: String
}

/// The payment provider's answer when a card is declined.
struct PaymentDeclined: Error, Equatable {}

/// The services of the address book: a user, their contacts, one avatar per contact.
struct AddressBook: Sendable {
    let log = Recorder<String>()
    let user: FakeEndpoint<String, User>
    let contacts: FakeEndpoint<User, [Contact]>
    let avatar: FakeEndpoint<Contact, Avatar>
    let avatars: FakeEndpoint<[Contact], [Avatar]>

    /// - Parameters:
    ///   - avatarLatency: How long each single-avatar request takes.
    ///   - failingAvatar: The contact whose avatar request fails, if any.
    init(avatarLatency: @escaping @Sendable (Contact) -> Latency = { _ in .hops(2) }, failingAvatar: String? = nil) {
        user = FakeEndpoint("user", log: log) { id in .success(User(id: id)) }
        contacts = FakeEndpoint("contacts", log: log) { user in
            .success(["ann", "bob", "cy"].map { Contact(name: "\(user.id).\($0)") })
        }
        avatar = FakeEndpoint("avatar", log: log, latency: avatarLatency) { contact in
            contact.name == failingAvatar
                ? .failure(TestError(404)) : .success(Avatar(contact: contact.name, pixels: "img:\(contact.name)"))
        }
        avatars = FakeEndpoint("avatars", log: log) { contacts in
            .success(contacts.map { Avatar(contact: $0.name, pixels: "img:\($0.name)") })
        }
    }

    /// The avatars every style must produce for user `u1`.
    static let expectedAvatars = ["u1.ann", "u1.bob", "u1.cy"].map { Avatar(contact: $0, pixels: "img:\($0)") }
}

/// The shop of the checkout workflow: order, then pay, then check.
struct Shop: Sendable {
    let log = Recorder<String>()
    let order: FakeEndpoint<String, Order>
    let pay: FakeEndpoint<Order, Receipt>
    let check: FakeEndpoint<Receipt, Confirmation>

    init(paymentFails: Bool) {
        order = FakeEndpoint("order", log: log) { cart in .success(Order(id: "o-\(cart)", amount: 42)) }
        pay = FakeEndpoint("pay", log: log) { order in
            paymentFails ? .failure(PaymentDeclined()) : .success(Receipt(orderID: order.id))
        }
        check = FakeEndpoint("check", log: log) { receipt in
            .success(Confirmation(orderID: receipt.orderID, status: "confirmed"))
        }
    }

    /// The calls of a successful checkout of cart `c1`, in order.
    static let happyLog = [
        "→ order(c1)", "← order(c1)", "→ pay(o-c1)", "← pay(o-c1)", "→ check(receipt-o-c1)",
        "← check(receipt-o-c1)",
    ]
    /// The calls of a checkout whose payment is declined: `check` is never called.
    static let declinedLog = ["→ order(c1)", "← order(c1)", "→ pay(o-c1)", "← pay(o-c1)"]
}

// MARK: - Waiting for an outcome (every wait has TestSupport's timeout)

// Each design's `outcome(of:)` (how one of its promises or tasks settled) is in its folder's
// `<Name>Scenarios.swift`, beside its wrap of the callback API.

/// The log without call arguments: `["→ user", "← user", ...]`.
func steps(_ log: Recorder<String>) -> [String] {
    log.all.map { entry in entry.firstIndex(of: "(").map { String(entry[..<$0]) } ?? entry }
}

/// Lets every block already queued on the main queue run (a check that something did *not*
/// happen waits for this first, instead of sleeping).
func mainQueueDrained() async throws {
    try await waitUntil("the main queue") { done in DispatchQueue.main.async { done() } }
}
