/// The scenarios `compare` measures: the FBPromise talk's situations (Reports/originals.md), google/promises' published benchmark
/// shapes, and growth curves.
///
/// Each has an expected result that every contender must produce before it is timed.
enum Scenario: String, CaseIterable, Sendable {
    case single
    case single2 = "single-2"
    case single3 = "single-3"
    case concurrent
    case chain
    case all
    case first
    case fanOut = "fan-out"
    case errors
    case workflow
    case checkout
    case cancel
    case fairness

    /// The title in the report: the name given to `--scenario`, where that says enough.
    var title: String {
        switch self {
        case .single2: return "single, 2 chained blocks"
        case .single3: return "single, 3 chained blocks"
        case .errors: return "error propagation"
        case .workflow: return "workflow: user, contacts, avatars"
        case .checkout: return "workflow: checkout"
        case .cancel: return "cancellation"
        case .fairness: return "fairness: a block behind a long chain"
        default: return rawValue
        }
    }

    var unit: String {
        switch self {
        case .single, .single2, .single3: return "operation"
        case .concurrent: return "promise"
        case .chain, .errors, .fairness: return "link"
        case .all, .first: return "input"
        case .fanOut: return "observer"
        case .workflow, .checkout: return "workflow"
        case .cancel: return "cancellation"
        }
    }

    var summary: String {
        switch self {
        case .single, .single2, .single3:
            let blocks =
                self == .single ? "one block" : self == .single2 ? "two chained blocks" : "three chained blocks"
            return "N operations, each a promise made already resolved plus \(blocks) (`then`) on a serial queue; "
                + "the last block of the last operation wakes the benchmark. google/promises' benchmark shape "
                + "(one operation = one resolved promise and its `then`s)."
        case .concurrent:
            return "N pending promises with one `then` each on a concurrent queue; all fulfilled from the benchmark "
                + "thread, then waited for."
        case .chain:
            return "One chain of N links, each adding 1, on a serial queue. Building (wiring the links) and "
                + "firing (fulfilling the root and waiting for the last link) are timed separately. Must not "
                + "crash at 100,000."
        case .all:
            return "N pending promises aggregated with the design's `all`, fulfilled in a seeded random order; the "
                + "result must list the values in input order."
        case .first:
            return "N pending promises raced (`race` / first success); one of them, at 70 % of the list, settles. "
                + "QX has no race operator and SwiftNIO no race either, so they sit this one out."
        case .fanOut:
            return "N observers (`then`s) on one pending promise, which is then fulfilled."
        case .errors:
            return "A rejected root and a chain of N `then`s that must all be skipped, ending in one error handler."
        case .workflow:
            return "The FBPromise talk's series + parallel case: get a user, then their 10 contacts, then all "
                + "10 avatars in parallel; every service call is simulated I/O as a hop to a concurrent queue and back (no "
                + "sleeps). N workflows run one after another."
        case .checkout:
            return "Order, then pay, then check, with one error handler; the payment fails for one order in ten "
                + "so the error path is timed too. Each step is a queue hop. N checkouts one after another."
        case .cancel:
            return "A 1,000-step serial task whose every step is a queue hop, cancelled from the benchmark thread "
                + "when step 500 runs. Timed from `cancel()` until the benchmark thread has the final callback's "
                + "value (freeing the task afterwards is not timed); `stepsRun` says how many steps "
                + "still ran (1,000 minus it were avoided). Only QN has cancellation among the designs; the "
                + "baselines are a GCD chain that checks a flag and a Swift `Task` that checks `isCancelled`; "
                + "Combine cancels a `flatMap` of `Future`s through its `AnyCancellable`, synchronously."
        case .fairness:
            return "A chain of N links, each adding 1, drains on a serial queue, then on the main queue; meanwhile "
                + "another thread dispatches a plain block onto that queue every 0.5 ms. `waitSerialMs` and "
                + "`waitMainMs` are the longest any block sent while the chain drained waited to start, in "
                + "milliseconds (a chain whose links "
                + "are blocks of their own lets one in after a link; a drain that ran to its end, after the whole "
                + "chain). Only GCD and Batched run it."
        }
    }

    /// Whether the scenario is a growth curve (charted on log-log axes).
    var isCurve: Bool { [.chain, .all, .fanOut, .errors].contains(self) }

    /// The sizes measured.
    func sizes(quick: Bool) -> [Int] {
        switch self {
        case .single, .single2, .single3: return [quick ? 200 : 2_000]
        case .concurrent: return [quick ? 1_000 : 10_000]
        case .chain, .all, .fanOut: return quick ? [10, 100, 1_000] : [10, 100, 1_000, 10_000, 100_000]
        case .errors: return quick ? [10, 100, 1_000] : [10, 100, 1_000, 10_000]
        case .first: return [quick ? 100 : 1_000]
        case .workflow, .checkout: return [quick ? 20 : 200]
        case .cancel: return [1_000]
        case .fairness: return [quick ? 10_000 : 1_000_000]
        }
    }

    /// The size the summary table quotes.
    func headlineSize(quick: Bool) -> Int {
        isCurve ? (quick ? 1_000 : 10_000) : sizes(quick: quick)[0]
    }

    /// How many times one repetition runs the scenario, so that a sample holds enough work to
    /// time reliably (small chains repeat; 100,000-link chains run once).
    func repeats(size: Int, quick: Bool) -> Int {
        guard isCurve else { return 1 }
        let unitsPerSample = quick ? 1_000 : 5_000
        return max(1, unitsPerSample / size)
    }

    /// Units of work in one run (times are divided by it).
    func units(size: Int) -> Int { self == .cancel ? 1 : size }

    /// The checksum a correct implementation returns for one run.
    func expectedChecksum(size: Int) -> Int {
        switch self {
        case .single: return size * 2
        case .single2: return size * 3
        case .single3: return size * 4
        case .concurrent: return size * (size - 1)
        case .chain, .all, .fanOut: return size
        case .first: return Inputs.winner(size: size)
        case .errors: return Self.errorCode
        case .workflow:
            return (0..<size).reduce(0) { sum, user in
                sum + Services.contacts(of: user).reduce(0) { $0 + Services.avatarSize(of: $1) }
            }
        case .checkout:
            return (0..<size).reduce(0) {
                $0 + (Services.paymentFails(order: $1) ? Services.declinedScore : Services.paidScore)
            }
        case .cancel: return 1
        case .fairness: return size * 2
        }
    }

    /// The code the error-propagation root rejects with and its handler returns.
    static let errorCode = 42
    /// Steps of the cancellation scenario, and the step at which it is cancelled.
    static let cancelSteps = 1_000
    static let cancelAt = 500
}

/// The error the error-propagation scenario rejects with.
struct ChainError: Error {
    let code: Int
}
