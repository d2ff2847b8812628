import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL then")
struct FBLThenTests {
    @Test("then maps the value, on the given queue")
    func mapsValue() async throws {
        let queue = TaggedQueue("fbl.then")
        let onQueue = Recorder<Bool>()
        let promise = FBLPromise(20).then(on: queue.queue) { value -> Int in
            onQueue.record(queue.isCurrent)
            return value + 1
        }
        #expect(try await value(of: promise) == 21)
        #expect(onQueue.all == [true])
    }

    @Test("nil reaches blocks and result as nil, not as NSNull (google's Objective-C core bridges it)")
    func nilStaysNil() async throws {
        let source = FBLPromise<PromiseValue>(nil)
        let seen = Recorder<String>()
        let promise = source.then(on: .global()) { value -> PromiseValue in
            seen.record(String(reflecting: value))
            return value
        }
        #expect(String(reflecting: try await value(of: promise)) == "nil")
        #expect(seen.all == ["nil"])
        guard case .success(let held) = source.result else {
            Issue.record("not fulfilled: \(String(describing: source.result))")
            return
        }
        #expect(held == nil)
    }

    @Test("then chains run in order, each after the previous one")
    func chainOrder() async throws {
        let steps = Recorder<String>()
        let promise = FBLPromise("a")
            .then(on: .global()) { value -> String in
                steps.record("first")
                return value + "b"
            }
            .then(on: .global()) { value -> String in
                steps.record("second")
                return value + "c"
            }
        #expect(try await value(of: promise) == "abc")
        #expect(steps.all == ["first", "second"])
    }

    @Test("then adopts a returned promise")
    func adoptsPromise() async throws {
        let later = FBLPromise<Int>.pending()
        let promise = FBLPromise(1).then(on: .global()) { _ in later }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { later.fulfill(2) }
        #expect(try await value(of: promise) == 2)
    }

    @Test("a Void then passes the value on")
    func voidThen() async throws {
        let seen = Recorder<Int>()
        let promise = FBLPromise(3).then(on: .global()) { (value: Int) in seen.record(value) }
        #expect(try await value(of: promise) == 3)
        #expect(seen.all == [3])
    }

    @Test("a throwing then rejects; a returned Error value rejects")
    func errorPaths() async throws {
        let thrown = FBLPromise(1).then(on: .global()) { _ -> Int in throw TestError(1) }
        #expect(try await error(of: thrown) as? TestError == TestError(1))
        let returned = FBLPromise(1).then(on: .global()) { _ -> any Error in TestError(2) }
        #expect(try await error(of: returned) as? TestError == TestError(2))
    }

    @Test("a rejection skips then and passes through")
    func rejectionPassesThrough() async throws {
        let called = Recorder<Int>()
        let promise = FBLPromise<Int>(TestError(3)).then(on: .global()) { value -> Int in
            called.record(value)
            return value
        }
        #expect(try await error(of: promise) as? TestError == TestError(3))
        #expect(called.all.isEmpty)
    }

    @Test("then's callback never runs before then returns")
    func asynchronous() async throws {
        // `then` is called on the callback's own serial queue: a synchronous callback would see
        // `returned` empty; a queued one cannot run before this block ends, whatever the load.
        let queue = TaggedQueue("fbl.then.async")
        let returned = Recorder<Bool>()
        let promise = queue.queue.sync {
            defer { returned.record(true) }
            return FBLPromise(1).then(on: queue.queue) { _ -> Bool in returned.all == [true] }
        }
        #expect(try await value(of: promise))
    }

    @Test("a 100,000-link chain settles without overflowing the stack")
    func deepChain() async throws {
        let links = stressSize(100_000)
        let source = FBLPromise<Int>.pending()
        let tail = try await offPool("building the chain") {
            var tail = source
            for _ in 0..<links {
                tail = tail.then(on: .global()) { $0 + 1 }
            }
            return tail
        }
        source.fulfill(0)
        #expect(try await value(of: tail, timeout: longTimeout(.seconds(60))) == links)
    }

    @Test("google/promises' closure type aliases name the blocks the operators take")
    func closureTypeAliases() async throws {
        let start: FBLPromise<Int>.Do<Int> = { 20 }
        let settle: FBLPromise<Int>.Async = { fulfill, _ in fulfill(1) }
        let add: FBLPromise<Int>.Then<Int> = { $0 + 1 }
        let ignore: FBLPromise<Int>.Catch = { _ in }
        let sum: FBLPromise<Int>.Reducer<Int> = { FBLPromise($0 + $1) }
        let promise = FBLPromise<Int>(on: .global(), start)
            .then(on: .global(), add)
            .catch(on: .global(), ignore)
            .reduce(on: .global(), [10, 11], sum)
        #expect(try await value(of: promise) == 42)
        #expect(try await value(of: FBLPromise<Int>(on: .global(), settle)) == 1)
    }
}
