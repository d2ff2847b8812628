// swift-format-ignore-file
// (The snippets are the documentation's text, aligned comments included.)
import AYPromises
import BatchedPromises
import Dispatch
import FBLPromises
import DesignRegistry
import QNTasks
import QXPromises
import TestSupport
import Testing

// The code blocks of the DocC articles (Implementations/*/*.docc, ConformanceTests/*/*.docc), compiled; the markers and the
// check are those of ReadmeSnippets.swift.

typealias Cart = String

/// A shop whose completion handler takes a `Result`.
struct ResultShop: Sendable {
    func order(_ cart: Cart, completion: @escaping @Sendable (Result<Order, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Order(id: cart))) }
    }
}

/// A shop whose completion handler takes a value or an error, in Objective-C's shape.
struct PairShop: Sendable {
    func order(_ cart: Cart, completion: @escaping @Sendable (Order?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(Order(id: cart), nil) }
    }
}

/// A cancellable request of a callback API.
final class Request: Sendable {
    func cancel() {}
}

enum FBLGettingStarted {
    static let shop = ResultShop()
    static let cart = "c-1"
    static let contacts = ["ann", "bob"]
    @Sendable static func pay(_ order: Order) -> FBLPromise<Receipt> { FBLPromise(Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) -> FBLPromise<Confirmation> {
        FBLPromise(Confirmation(receipt: receipt))
    }
    @Sendable static func show(_ confirmation: Confirmation) {}
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

enum AYGettingStarted {
    static let shop = PairShop()
    static let cart = "c-1"
    static let urls = ["u1", "u2"]
    static let checkQueue = DispatchQueue(label: "check")
    @Sendable static func pay(_ order: Order) -> AYPromise { AYPromise.with(Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) throws -> Confirmation { Confirmation(receipt: receipt) }
    @Sendable static func show(_ confirmation: PromiseValue) {}
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

enum QXGettingStarted {
    static let shop = PairShop()
    static let cart = "c-1"
    @Sendable static func pay(_ order: Order) -> QXPromise { QXPromise(fulfilledWith: Receipt(order: order)) }
    @Sendable static func check(_ receipt: Receipt) -> QXPromise {
        QXPromise(fulfilledWith: Confirmation(receipt: receipt))
    }
    @Sendable static func report(_ error: any Error) {}
    @Sendable static func show(_ items: PromiseValue) {}
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
struct QNGettingStarted: Sendable {
    struct API: Sendable {
        func list(completion: @escaping @Sendable (Result<[Item], any Error>) -> Void) -> Request {
            DispatchQueue.global().async { completion(.success([Item(name: "remote")])) }
            return Request()
        }
    }
    struct Cache: Sendable { func load() throws -> [Item] { [] } }
    let api = API()
    let cache = Cache()
    @Sendable func show(_ items: [Item]) {}
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

/// TestSupport's article (ConformanceTests/TestSupport/TestSupport.docc), run as a test.
@Suite("Documentation: TestSupport's deterministic callback check")
struct DeterministicTestsArticle {
    @Test("a callback runs on the main queue, after the block that registered it returned")
    func example() async throws {
        let promise = FBLPromise("value")
        // snippet: docc-testsupport-deterministic
        let returned = Recorder<Bool>()
        let seen = Recorder<String>()
        try await waitUntil { done in
            DispatchQueue.main.async {                // the queue the callback runs on
                defer { returned.record(true) }       // recorded before the block ends
                promise.then(on: .main) { _ in
                    seen.record("main:\(MainQueue.isCurrent) after return:\(returned.all == [true])")
                    done()
                }
            }
        }
        #expect(seen.all == ["main:true after return:true"])
        // end-snippet
    }
}

// MARK: Batched

/// The placeholder image of Batched's recovery example.
extension Avatar {
    static let placeholder = Avatar(name: "placeholder")
}

/// Batched's articles (Implementations/BatchedPromises/BatchedPromises.docc), compiled: an app's
/// types and services as stand-ins, so that the snippets' bare names (`shop`, `pay`, `loadUser`)
/// have the types an app's would. The examples are compiled, not run; the scheduling contract's
/// are run by `BatchedSchedulingArticle` below.
enum BatchedArticles {
    enum ShopError: Error { case declined, unavailable }
    enum APIError: Error, Equatable { case timedOut, notFound }
    enum AppError: Error { case network(APIError) }
    struct Order: Sendable { let id: String; let total: Int }
    struct Receipt: Sendable { let total: Int }
    struct User: Sendable { let id: String }
    struct Page: Sendable { let text: String }
    struct Mirror: Sendable { let host: String }
    struct Status: Sendable { let isDone: Bool }

    /// A shop whose calls take a `Result` completion handler and return a request to cancel.
    struct Shop: Sendable {
        func order(_ cart: Cart, completion: @escaping @Sendable (Result<Order, ShopError>) -> Void) -> Request {
            DispatchQueue.global().async { completion(.success(Order(id: cart, total: 42))) }
            return Request()
        }
    }

    final class Spinner: Sendable {
        func stop() {}
    }

    static let shop = Shop()
    static let cart: Cart = "c-1"
    static let user = User(id: "42")
    static let contacts = [User(id: "ann"), User(id: "bob")]
    static let (mirror1, mirror2) = (Mirror(host: "a.example"), Mirror(host: "b.example"))
    static let spinner = Spinner()
    static let api = ProfileAPI()
    static let queue = DispatchQueue(label: "docc.batched.poll")

    @Sendable static func pay(_ order: Order) -> Promise<Receipt, ShopError> { Promise(value: Receipt(total: order.total)) }
    static func loadUser(id: String) -> Promise<User, APIError> { Promise(value: User(id: id)) }
    static func loadAvatar(of user: User) -> Promise<Avatar, APIError> { Promise(value: Avatar(name: user.id)) }
    static func load(from mirror: Mirror) -> Promise<Page, APIError> { Promise(value: Page(text: mirror.host)) }
    static func fetchAvatars() -> Promise<[Avatar], APIError> { Promise(value: [Avatar(name: "a")]) }
    static func fetchStatus() -> Promise<Status, APIError> { Promise(value: Status(isDone: true)) }
    @Sendable static func show(_ total: Int) {}
    @Sendable static func show(_ user: User) {}
    @Sendable static func showAlert(_ error: ShopError) {}
    @Sendable static func showCancelled() {}
    @Sendable static func log(_ error: any Error) {}
    @Sendable static func report(_ failures: [APIError]) {}

    static func chaining() {
        // snippet: docc-batched-wrap
        func order(_ cart: Cart) -> Promise<Order, ShopError> {
            Promise { resolver in
                let request = shop.order(cart, completion: resolver.resolve)   // a Result handler, as it is
                resolver.onCancel { request.cancel() }                          // cancelling stops the request
            }
        }
        // end-snippet

        // snippet: docc-batched-chain
        order(cart)
            .flatMap(on: .main) { order in pay(order) }       // a step that returns a promise
            .map(on: .main) { receipt in receipt.total }
            .whenComplete(on: .main) { outcome in
                switch outcome {
                case .fulfilled(let total): show(total)
                case .rejected(let error): showAlert(error)   // a ShopError: the failure is typed
                case .cancelled: break                         // cancelled before it settled
                }
            }
        // end-snippet
    }

    static func recovering() {
        // snippet: docc-batched-errors
        let avatar: Promise<Avatar, Never> = loadAvatar(of: user)   // Promise<Avatar, APIError>
            .mapError(on: .main) { AppError.network($0) }            // Promise<Avatar, AppError>
            .catch(on: .main) { error in log(error) }                // sees the failure, passes it on
            .recover(on: .main) { _ in Avatar.placeholder }          // a recovery that cannot fail: Never
            .always(on: .main) { spinner.stop() }                    // however it settled, cancelled included
        // end-snippet
        _ = avatar
    }

    static func combining() {
        // snippet: docc-batched-combine
        let avatars = Promise.all(contacts.map { loadAvatar(of: $0) })      // Promise<[Avatar], APIError>, in order

        let page = Promise.any([load(from: mirror1), load(from: mirror2)])   // the first mirror that answers
        page.catch(on: .main) { rejected in report(rejected.failures) }      // AllRejected: every mirror's failure

        let user = loadUser(id: "42").timeout(after: .seconds(5), failure: APIError.timedOut)
        let feed = Promise.retry(attempts: 3, delay: .seconds(1)) { load(from: mirror1) }
        // end-snippet
        _ = (avatars, user, feed)
    }

    static func cancelling() {
        // snippet: docc-batched-cancel
        let placed = Promise<Order, ShopError> { resolver in
            let request = shop.order(cart, completion: resolver.resolve)
            resolver.onCancel { request.cancel() }                    // the producer's handler
        }
        let total = placed.map(on: .main) { order in order.total }    // never called once cancelled
        total.whenComplete(on: .main) { outcome in
            if case .cancelled = outcome { showCancelled() }          // told on the main queue
        }
        total.cancel()   // total, then placed (no one else waits for it): request.cancel() has run
        // end-snippet
    }

    static func awaiting() {
        // snippet: docc-batched-async
        let screen = Task {
            let user = try await loadUser(id: "42").value   // throws the APIError, or CancellationError
            show(user)
        }
        screen.cancel()   // withdraws the wait: the promise is cancelled if no one else waits for it

        let profile = Promise<Profile, any Error> { try await api.profile(of: "42") }   // a Task, started now
        profile.cancel()  // cancels the Task
        // end-snippet
    }

    // snippet: docc-batched-mainactor
    @MainActor final class ProfileModel {
        var avatars: [Avatar] = []
        var failure: APIError?

        func load() {
            fetchAvatars()
                .map(on: MainActor.shared) { avatars in self.avatars = avatars }   // on the main actor
                .catch(on: MainActor.shared) { error in self.failure = error }
        }
    }
    // end-snippet

    static func polling() {
        // snippet: docc-batched-step-loop
        @Sendable func poll() -> Promise<Status, APIError> {
            fetchStatus().flatMap(on: queue) { status in
                status.isDone ? Promise(value: status) : poll()   // this step's promise forwards to the first
            }
        }

        let job = poll()   // one root for the whole loop, however many steps it takes
        job.cancel()       // cancels it, and through it the fetch under way
        // end-snippet
    }
}

/// Batched's scheduling contract (SchedulingContract.md), run: its examples do what the article
/// says they do.
@Suite("Documentation: Batched's scheduling contract, run")
struct BatchedSchedulingArticle {
    typealias APIError = BatchedArticles.APIError

    /// An image service whose downloads never finish; it records the downloads cancelled.
    struct Images: Sendable {
        let cancelled = Recorder<String>()

        func download(_ name: String, completion: @escaping @Sendable (Result<String, APIError>) -> Void) -> Download {
            Download(name: name, cancelled: cancelled)
        }
    }

    /// A download under way, which can be cancelled.
    final class Download: Sendable {
        let name: String
        let cancelled: Recorder<String>

        init(name: String, cancelled: Recorder<String>) {
            self.name = name
            self.cancelled = cancelled
        }

        func cancel() { cancelled.record(name) }
    }

    let images = Images()

    @Test("a callback made runnable in a drain of its queue runs there, before a block queued first")
    func joinsTheRunningDrain() async throws {
        let queue = DispatchQueue(label: "docc.batched.join")
        let recorded = Recorder<String>()
        @Sendable func record(_ event: String) { recorded.record(event) }
        // snippet: docc-batched-join
        let (next, resolver) = Promise<Int, Never>.makePending()
        next.then(on: queue) { value in record("next callback: \(value)") }

        Promise<Int, Never>(value: 1).then(on: queue) { _ in
            queue.async { record("block") }         // queued before the settle
            resolver.fulfill(2)                      // next's callback joins this drain
            record("first callback returns")
        }
        // recorded: first callback returns, next callback: 2, block
        // end-snippet
        try await eventually("the three records") { recorded.count == 3 }
        #expect(recorded.all == ["first callback returns", "next callback: 2", "block"])
    }

    @Test("cancelling one of two links leaves their input to settle; cancelling both cancels it, and its producer")
    func cancellationWalk() {
        // snippet: docc-batched-cancel-walk
        let image = Promise<String, APIError> { resolver in
            let request = images.download("cat.png", completion: resolver.resolve)
            resolver.onCancel { request.cancel() }                 // the producer stops its work
        }
        let thumbnail = image.map(on: .main) { data in "thumbnail of \(data)" }
        let preview = image.map(on: .main) { data in "preview of \(data)" }

        thumbnail.cancel()   // preview still waits for image: the download goes on
        preview.cancel()     // no one is left: image is cancelled, and request.cancel() has run
        // end-snippet
        #expect(images.cancelled.all == ["cat.png"])
        #expect(image.currentOutcome == .cancelled)
        #expect(thumbnail.currentOutcome == .cancelled)
        #expect(preview.currentOutcome == .cancelled)
    }
}
