// swift-format-ignore-file
// (The snippets are the documentation's text, aligned comments included.)
import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import Synchronization

// The code blocks for the four designs of the README and the design review's "Each port at a
// glance", compiled with Xcode 26's defaults (default
// main-actor isolation): each is identical to its twin in the root package's
// ConformanceTests/DocumentationTests/ReadmeSnippets.swift, which `DocumentationSnippetTests` checks.
//
// The stubs are `nonisolated`, as the service layer of such a module must be: a promise's plain
// blocks are `@Sendable` and run on the queue they are given, so what they call cannot be
// isolated to the main actor. Main-actor state is updated through the designs' main-actor
// variants (`readme-main-actor`). Each snippet's last stub records its name in `Ran`, which the
// tests wait for.

/// Stand-ins for an app's types.
nonisolated struct Order: Sendable { let id: String }
nonisolated struct Receipt: Sendable { let order: Order }
nonisolated struct Confirmation: Sendable { let receipt: Receipt }
nonisolated struct Item: Sendable { let name: String }
nonisolated struct Avatar: Sendable, Equatable { let name: String }

nonisolated enum FBLReadme {
    @Sendable static func fetchOrder(_ completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion("o-1", nil) }
    }
    @Sendable static func pay(_ order: String) -> FBLPromise<Receipt> { FBLPromise(Receipt(order: Order(id: order))) }
    @Sendable static func check(_ receipt: Receipt) -> Confirmation {
        Ran.shared.record("review-fbl")
        return Confirmation(receipt: receipt)
    }
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

nonisolated enum CommandLineReadme {
    @Sendable static func pay(_ order: String) -> FBLPromise<Receipt> { FBLPromise(Receipt(order: Order(id: order))) }
    @Sendable static func check(_ receipt: Receipt) -> Confirmation { Confirmation(receipt: receipt) }
    static func show(_ confirmation: Confirmation) { Ran.shared.record("readme-command-line") }

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

nonisolated enum AYReadme {
    @Sendable static func fetchOrder(completion: @escaping @Sendable (Result<Order, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Order(id: "o-1"))) }
    }
    @Sendable static func pay(_ order: Order) -> AYPromise { AYPromise.with(Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) throws -> Confirmation { Confirmation(receipt: receipt) }
    @Sendable static func log(_ error: any Error) {}
    @Sendable static func hideSpinner() { Ran.shared.record("review-ay") }
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

nonisolated enum QXReadme {
    @Sendable static func fetchOrder(completion: @escaping @Sendable (Order?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(Order(id: "o-1"), nil) }
    }
    @Sendable static func pay(_ order: Order) -> QXPromise { QXPromise(fulfilledWith: Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) -> QXPromise {
        Ran.shared.record("review-qx")
        return QXPromise(fulfilledWith: Confirmation(receipt: receipt))
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

nonisolated enum QNReadme {
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
nonisolated enum MainActorReadme {
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
