// swift-format-ignore-file
// (The snippets are the documentation's text, aligned comments included.)
import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises

// The DocC articles' code blocks for the four designs, compiled with Xcode 26's defaults; each is
// identical to its twin in the root package's ConformanceTests/DocumentationTests/DocCSnippets.swift.
// The stubs are `nonisolated` for the reason ReadmeSnippets.swift gives.

typealias Cart = String

/// A shop whose completion handler takes a `Result`.
nonisolated struct ResultShop: Sendable {
    func order(_ cart: Cart, completion: @escaping @Sendable (Result<Order, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Order(id: cart))) }
    }
}

/// A shop whose completion handler takes a value or an error, in Objective-C's shape.
nonisolated struct PairShop: Sendable {
    func order(_ cart: Cart, completion: @escaping @Sendable (Order?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(Order(id: cart), nil) }
    }
}

/// A cancellable request of a callback API.
nonisolated final class Request: Sendable {
    func cancel() {}
}

nonisolated enum FBLGettingStarted {
    static let shop = ResultShop()
    static let cart = "c-1"
    static let contacts = ["ann", "bob"]
    @Sendable static func pay(_ order: Order) -> FBLPromise<Receipt> { FBLPromise(Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) -> FBLPromise<Confirmation> {
        FBLPromise(Confirmation(receipt: receipt))
    }
    @Sendable static func show(_ confirmation: Confirmation) { Ran.shared.record("docc-fbl") }
    @Sendable static func report(_ error: any Error) {}
    static func avatar(of contact: String) -> FBLPromise<Avatar> { FBLPromise(Avatar(name: contact)) }
    struct Mirror: Sendable { func get() -> FBLPromise<String> { FBLPromise("x") } }
    static let (mirrorA, mirrorB) = (Mirror(), Mirror())

    static func example() async throws {
        // snippet: docc-fbl
        func order(_ cart: Cart) -> FBLPromise<Order> {
            let promise = FBLPromise<Order>.pending()
            shop.order(cart) { result in
                switch result {
                case .success(let order): promise.fulfill(order)
                case .failure(let error): promise.reject(error)
                }
            }
            return promise
        }

        order(cart)
            .then { order in pay(order) }           // returns FBLPromise<Receipt>: adopted
            .then { receipt in check(receipt) }     // returns FBLPromise<Confirmation>
            .then { confirmation in show(confirmation) }
            .catch { error in report(error) }       // one handler for every step

        let avatars = all(contacts.map { avatar(of: $0) })   // FBLPromise<[Avatar]>, in input order
        let fastest = race([mirrorA.get(), mirrorB.get()])   // settles like the first to settle
        let value = try await fastest.value                // Swift concurrency bridge
        // end-snippet
        _ = (avatars, value)
    }
}

nonisolated enum AYGettingStarted {
    static let shop = PairShop()
    static let cart = "c-1"
    static let urls = ["u1", "u2"]
    static let checkQueue = DispatchQueue(label: "check")
    @Sendable static func pay(_ order: Order) -> AYPromise { AYPromise.with(Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) throws -> Confirmation { Confirmation(receipt: receipt) }
    @Sendable static func show(_ confirmation: PromiseValue) { Ran.shared.record("docc-ay") }
    @Sendable static func report(_ error: any Error) {}
    @Sendable static func hideSpinner() {}
    static func download(_ url: String) -> AYPromise { AYPromise.with(url) }
    static let (mirrorA, mirrorB) = (AYPromise.with("a"), AYPromise.with("b"))
    struct API: Sendable {
        func user(_ id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
            completion(.success("user \(id)"))
        }
    }
    static let api = API()

    static func example() async throws {
        // snippet: docc-ay
        AYPromise.asyncWithResolve { resolve in
            shop.order(cart) { order, error in resolve(error ?? order) }   // an Error value rejects
        }
        .then { order in pay(order as! Order) }            // main queue; a returned AYPromise is adopted
        .thenOn(checkQueue) { receipt in try check(receipt as! Receipt) }
        .then { confirmation in show(confirmation) }
        .catch { error in report(error) }                  // recovers: the chain fulfils with nil
        .always { hideSpinner() }

        let user = AYPromise.withCompletion { api.user(42, completion: $0) }   // a Result handler

        let images = AYPromise.all(urls.map { download($0) })          // [PromiseValue]
        let text = try await AYPromise.race([mirrorA, mirrorB]).value(as: String.self)
        // end-snippet
        _ = (user, images, text)
    }
}

nonisolated enum QXGettingStarted {
    static let shop = PairShop()
    static let cart = "c-1"
    @Sendable static func pay(_ order: Order) -> QXPromise { QXPromise(fulfilledWith: Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) -> QXPromise {
        QXPromise(fulfilledWith: Confirmation(receipt: receipt))
    }
    @Sendable static func report(_ error: any Error) {}
    @Sendable static func show(_ items: PromiseValue) { Ran.shared.record("docc-qx") }
    static func loadCache() -> QXPromise { QXPromise(fulfilledWith: [Item(name: "cached")]) }
    static func loadRemote() -> QXPromise { QXPromise(fulfilledWith: [Item(name: "remote")]) }
    @Sendable static func merge(_ cached: PromiseValue, _ remote: PromiseValue) -> PromiseValue { remote }

    static func example() {
        // snippet: docc-qx
        func order(_ cart: Cart) -> QXPromise {
            QXPromise { fulfill, reject in                   // runs now, on this thread
                shop.order(cart) { order, error in
                    if let error { reject(error) } else { fulfill(order) }
                }
            }
        }

        order(cart)
            .then { order in pay(order as! Order) }          // returns a QXPromise: observed in turn
            .retry(2)                                        // runs `pay` again with the kept order
            .then { receipt in check(receipt as! Receipt) }
            .catch { error in                                // the block decides what follows
                report(error)
                return nil
            }

        // Progress: the work reports (proportion, partial value); the caller observes it.
        let (list, resolver) = QXPromise.pending()
        resolver.fulfill(loadCache().then { cached in
            resolver.progress(0.5, cached)                   // the caller sees the cache at once
            return loadRemote().then { remote in merge(cached, remote) }
        })                                                   // the list follows the chain
        list.progress { proportion, partial in show(partial) }
            .then { items in show(items) }                   // on the default queue (main)
        // end-snippet
    }
}

/// An instance's members, so that the article's `func remote()` is written as it is there and its
/// `@Sendable` closures capture a `Sendable` value.
nonisolated struct QNGettingStarted: Sendable {
    struct API: Sendable {
        func list(completion: @escaping @Sendable (Result<[Item], any Error>) -> Void) -> Request {
            DispatchQueue.global().async { completion(.success([Item(name: "remote")])) }
            return Request()
        }
    }
    struct Cache: Sendable { func load() throws -> [Item] { [] } }
    let api = API()
    let cache = Cache()
    @Sendable func show(_ items: [Item]) { Ran.shared.record("docc-qn") }
    func mirrorA() -> QNAsyncTask<String> { QNAsyncBlockTask { _ in "a" } }
    func mirrorB() -> QNAsyncTask<String> { QNAsyncBlockTask { _ in "b" } }

    // snippet: docc-qn-remote
    func remote() -> QNAsyncManualTask<[Item]> {
        QNAsyncManualTask(taskID: "remote") { task in
            let request = api.list { result in
                switch result {
                case .success(let items): task.succeed(items)
                case .failure(let error): task.fail(error)
                }
            }
            task.onCancel { request.cancel() }
        }
    }
    // end-snippet

    func example() async throws {
        // snippet: docc-qn
        let loader = QNAsyncSerialTask<[Item]>(
            taskID: "list",
            buildBlocks: [
                { _ in .optional(QNAsyncBlockTask(taskID: "cache") { _ in try cache.load() }) },
                { _ in .required(remote()) },
            ],
            progressMonitor: { subState in                   // main queue, as each step finishes
                if subState.taskID == "cache", let cached = subState.result(as: [Item].self) { show(cached) }
            },
            resultGenerate: { subStates in subStates.last!.result(as: [Item].self)! }
        )
        loader.start { outcome in                            // .succeeded, .failed or .cancelled
            if case .succeeded(let items) = outcome { show(items) }
        }
        loader.cancel()                                      // cancels the running request: .cancelled

        let first = QNAsyncParallelTask(firstSuccessOf: [mirrorA(), mirrorB()])   // losers cancelled
        let mirror = try await first.value                   // cancelling the Swift Task cancels it
        // end-snippet
        _ = mirror
    }
}
