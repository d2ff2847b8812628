// swift-format-ignore-file
// (The snippets are the documentation's text, aligned comments included.)
import AYPromises
import BatchedPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import Synchronization

// The code blocks of README.md and of the design review's "Each port at a glance" (`review-…`),
// compiled: each block is the code between a `// snippet: NAME` and its `// end-snippet` marker,
// with its `import` lines left out (they are at the top of this file). `DocumentationSnippetTests`
// checks that every block of the documentation is one of these.
// Each design's stubs are members of an enum, so a snippet's bare names (`pay`, `check`) are
// typed as that design's services would be.

/// Stand-ins for an app's types.
struct Order: Sendable { let id: String }
struct Receipt: Sendable { let order: Order }
struct Confirmation: Sendable { let receipt: Receipt }
struct Item: Sendable { let name: String }
struct Avatar: Sendable, Equatable { let name: String }

enum FBLReadme {
    @Sendable static func fetchOrder(_ completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion("o-1", nil) }
    }
    @Sendable static func pay(_ order: String) -> FBLPromise<Receipt> { FBLPromise(Receipt(order: Order(id: order))) }
    @Sendable static func check(_ receipt: Receipt) -> Confirmation { Confirmation(receipt: receipt) }
    @Sendable static func log(_ error: any Error) {}

    static func example() {
        // snippet: review-fbl
        FBLPromise<String>(on: .global()) { fulfill, reject in
            fetchOrder { order, error in error.map(reject) ?? fulfill(order!) }
        }
        .then { order in pay(order) }          // returns FBLPromise<Receipt>: adopted
        .then { receipt in check(receipt) }
        .catch { error in log(error) }         // one handler for every step
        // end-snippet
    }
}

enum CommandLineReadme {
    @Sendable static func pay(_ order: String) -> FBLPromise<Receipt> { FBLPromise(Receipt(order: Order(id: order))) }
    @Sendable static func check(_ receipt: Receipt) -> Confirmation { Confirmation(receipt: receipt) }
    static let shown = Mutex<[String]>([])
    static func show(_ confirmation: Confirmation) { shown.withLock { $0.append(confirmation.receipt.order.id) } }

    /// The README's `main.swift`, run by `DocumentationSnippetTests.commandLineSnippetRuns`.
    static func main() async throws {
        // snippet: readme-command-line
        // main.swift: the top-level `await` makes this an async entry point, whose main queue
        // Swift services while it waits, so the `then` block (main queue by default) runs.
        let confirmation = try await pay("o-1")
            .then { receipt in check(receipt) }
            .value
        show(confirmation)
        // end-snippet
    }
}

enum AYReadme {
    @Sendable static func fetchOrder(completion: @escaping @Sendable (Result<Order, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Order(id: "o-1"))) }
    }
    @Sendable static func pay(_ order: Order) -> AYPromise { AYPromise.with(Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) throws -> Confirmation { Confirmation(receipt: receipt) }
    @Sendable static func log(_ error: any Error) {}
    @Sendable static func hideSpinner() {}
    static let checkQueue = DispatchQueue(label: "check")
    static let (mirror1, mirror2) = (AYPromise.with("a"), AYPromise.with("b"))

    static func example() async throws {
        // snippet: review-ay
        AYPromise.withCompletion { fetchOrder(completion: $0) }   // .failure rejects
            .then { order in pay(order as! Order) }           // main queue; a returned AYPromise is adopted
            .thenOn(checkQueue) { receipt in try check(receipt as! Receipt) }
            .catch { error in log(error) }                    // recovers: later thens run, later catches are skipped
            .always { hideSpinner() }                         // the chain fulfils with what this returns: nil

        let name = try await AYPromise.race([mirror1, mirror2]).value(as: String.self)
        // end-snippet
        _ = name
    }
}

enum QXReadme {
    @Sendable static func fetchOrder(completion: @escaping @Sendable (Order?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(Order(id: "o-1"), nil) }
    }
    @Sendable static func pay(_ order: Order) -> QXPromise { QXPromise(fulfilledWith: Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) -> QXPromise {
        QXPromise(fulfilledWith: Confirmation(receipt: receipt))
    }
    @Sendable static func log(_ error: any Error) {}

    static func example() {
        // snippet: review-qx
        QXPromise { fetchOrder(completion: $0) }    // (order, error) handler: an error rejects
            .then { order in pay(order as! Order) }     // returns a QXPromise: observed in turn
            .retry(2)                                   // runs `pay` again with the kept order if it failed
            .then { receipt in check(receipt as! Receipt) }
            .catch { error in log(error); return nil }  // the catch block decides what comes next
        // end-snippet
    }
}

enum QNReadme {
    static func loadLocalCache() -> QNAsyncBlockTask<[Item]> { QNAsyncBlockTask(taskID: "local") { _ in [] } }
    static func loadRemote() -> QNAsyncManualTask<[Item]> {
        QNAsyncManualTask(taskID: "remote") { $0.succeed([Item(name: "a")]) }
    }
    @Sendable static func show(_ items: [Item]) {}
    @Sendable static func aggregate(_ subStates: [QNAsyncSerialTaskSubState]) -> [Item] {
        subStates.compactMap { $0.result(as: [Item].self) }.flatMap { $0 }
    }

    static func example() {
        // snippet: review-qn
        let loader = QNAsyncSerialTask<[Item]>(
            taskID: "list",
            buildBlocks: [
                { _ in .optional(loadLocalCache()) },            // a QNAsyncBlockTask; failure is tolerated
                { _ in .required(loadRemote()) },                // a QNAsyncManualTask wrapping the request
            ],
            progressMonitor: { subState in                       // main queue, as each sub-task finishes
                if subState.taskID == "local", let cached = subState.result(as: [Item].self) { show(cached) }
            },
            resultGenerate: { subStates in aggregate(subStates) }
        )
        loader.start { outcome in                                // .succeeded, .failed or .cancelled
            if case .succeeded(let items) = outcome { show(items) }
        }
        loader.cancel()                                          // cancels the running sub-task
        // end-snippet
    }
}

/// The README's main-actor example: a view model updates its state from each design's callbacks.
enum MainActorReadme {
    static func fetchAvatars() -> FBLPromise<[Avatar]> { FBLPromise([Avatar(name: "a")]) }
    static func fetchAvatarsAY() -> AYPromise { AYPromise.with([Avatar(name: "a")]) }
    /// QX's download: pending until the test reports its progress and fulfils it.
    static let qxDownload = QXPromise.pending(on: .global())
    static func fetchAvatarsQX() -> QXPromise { qxDownload.promise }
    /// QN's download: reports half its progress, then succeeds.
    static func avatarTask() -> QNAsyncManualTask<[Avatar]> {
        QNAsyncManualTask { task in
            task.reportProgress(0.5)
            task.succeed([Avatar(name: "a")])
        }
    }

    // snippet: readme-main-actor
    @MainActor final class ProfileModel {
        var avatars: [Avatar] = []
        var fraction = 0.0

        func load() {
            fetchAvatars().then(on: MainActor.shared) { avatars in self.avatars = avatars }   // FBL
            fetchAvatarsAY().thenOnMainActor { avatars in self.avatars = avatars as! [Avatar] }   // AY
            fetchAvatarsQX()                                                                  // QX
                .progress(on: MainActor.shared) { proportion, _ in self.fraction = proportion }
                .then(on: MainActor.shared) { avatars in
                    self.avatars = avatars as! [Avatar]
                    return nil
                }
            let task = avatarTask()                                                           // QN
            task.monitorProgress(on: MainActor.shared) { fraction in self.fraction = fraction }
            task.start(on: MainActor.shared) { outcome in
                if case .succeeded(let avatars) = outcome { self.avatars = avatars }
            }
        }
    }
    // end-snippet
}

// The README's before/after example: a callback API, used as it is, then adopted with Batched
// promises; and the same flow with async/await.

/// A request in flight, which its caller may cancel.
final class OrderRequest: Sendable {
    func cancel() {}
}

@discardableResult
func requestOrder(completion: @escaping @Sendable (Result<Order, any Error>) -> Void) -> OrderRequest {
    DispatchQueue.global().async { completion(.success(Order(id: "o-1"))) }
    return OrderRequest()
}

@discardableResult
func requestPayment(
    for order: Order, completion: @escaping @Sendable (Result<Receipt, any Error>) -> Void
) -> OrderRequest {
    DispatchQueue.global().async { completion(.success(Receipt(order: order))) }
    return OrderRequest()
}

@Sendable func checkReceipt(_ receipt: Receipt) -> Confirmation { Confirmation(receipt: receipt) }
@Sendable func showConfirmation(_ confirmation: Confirmation) {}
@Sendable func logError(_ error: any Error) {}

enum BeforeReadme {
    static func example() {
        // snippet: readme-before
        requestOrder { result in
            switch result {
            case .failure(let error): logError(error)
            case .success(let order):
                requestPayment(for: order) { result in
                    switch result {
                    case .failure(let error): logError(error)
                    case .success(let receipt): showConfirmation(checkReceipt(receipt))
                    }
                }
            }
        }
        // end-snippet
    }
}

// snippet: readme-after
// Each callback API wrapped once: the request starts at once; cancelling the promise cancels it.
func fetchOrder() -> Promise<Order, any Error> {
    Promise { resolver in
        let request = requestOrder { result in resolver.resolve(result) }
        resolver.onCancel { request.cancel() }
    }
}

func pay(_ order: Order) -> Promise<Receipt, any Error> {
    Promise { resolver in
        let request = requestPayment(for: order) { result in resolver.resolve(result) }
        resolver.onCancel { request.cancel() }
    }
}

func checkout() -> Promise<Confirmation, any Error> {
    fetchOrder()
        .flatMap { order in pay(order) }          // main queue by default; the returned promise is adopted
        .map { receipt in checkReceipt(receipt) }
        .catch { error in logError(error) }       // one handler for every step
}
// end-snippet

enum AsyncAwaitReadme {
    static func fetchOrder() async throws -> Order {
        try await withCheckedThrowingContinuation { continuation in
            requestOrder { result in continuation.resume(with: result) }
        }
    }

    static func pay(_ order: Order) async throws -> Receipt {
        try await withCheckedThrowingContinuation { continuation in
            requestPayment(for: order) { result in continuation.resume(with: result) }
        }
    }

    static func checkout() async throws -> Confirmation {
        // snippet: readme-async-await
        let order = try await fetchOrder()     // an async wrap of the same request
        let receipt = try await pay(order)
        return checkReceipt(receipt)
        // end-snippet
    }
}
