import AYPromises
import Dispatch
import TestSupport
import Testing

/// The examples of AYPromise's `DOC.md` (https://github.com/alan-yeh/AYPromise), in Swift.
@Suite("AY examples from AYPromise's DOC.md")
struct AYDocExamplesTests {
    @Test("then appends to the value: resolve(\"aaa\").then { result + \"bbb\" }")
    func thenExample() async throws {
        let promise = AYPromise.withResolve { resolve in resolve("aaa") }
            .then { result in (result as! String) + "bbb" }
        #expect(try await value(of: promise) as? String == "aaabbb")
    }

    @Test("resolve(error): then is skipped, the first catch runs, the second catch is skipped")
    func catchExample() async throws {
        let steps = Recorder<String>()
        let promise = AYPromise.withResolve { resolve in resolve(TestError(1)) }
            .then { steps.record("then") }
            .catch { _ in steps.record("first catch") }
            .catch { _ in steps.record("second catch") }
        _ = try await value(of: promise)
        #expect(steps.all == ["first catch"])
    }

    @Test("a then that throws, or returns an error, is caught by the next catch")
    func throwInThenExample() async throws {
        let caught = Recorder<Int>()
        let thrown = AYPromise.withResolve { resolve in resolve("aaa") }
            .then { () throws -> Void in throw TestError(2) }
            .catch { error in caught.record((error as! TestError).code) }
        let returned = AYPromise.withResolve { resolve in resolve("aaa") }
            .then { TestError(3) }
            .catch { error in caught.record((error as! TestError).code) }
        _ = try await value(of: thrown)
        _ = try await value(of: returned)
        #expect(Set(caught.all) == [2, 3])
    }

    @Test("all: p2 throws, so then is skipped and catch gets p2's error")
    func allRejectsExample() async throws {
        let steps = Recorder<String>()
        let p1 = AYPromise.with { "aa" }
        let p2 = AYPromise.with { () throws -> PromiseValue in throw TestError(4) }
        let p3 = AYPromise.with { "cc" }
        let promise = AYPromise.all([p1, p2, p3])
            .then { _ in steps.record("then") }
            .catch { error in
                let wrapper = error as! AYAllRejectedError
                steps.record("catch \((wrapper.internalError as! TestError).code)")
            }
        _ = try await value(of: promise)
        #expect(steps.all == ["catch 4"])
    }

    @Test("all: every promise fulfils, so then gets [aa, bb, cc] and catch is skipped")
    func allFulfilsExample() async throws {
        let steps = Recorder<String>()
        let promise = AYPromise.all([AYPromise.with { "aa" }, AYPromise.with { "bb" }, AYPromise.with { "cc" }])
            .then { result in
                let strings = (result as! [PromiseValue]).map { $0 as! String }
                steps.record("then \(strings.joined(separator: ","))")
            }
            .catch { _ in steps.record("catch") }
        _ = try await value(of: promise)
        #expect(steps.all == ["then aa,bb,cc"])
    }

    @Test("race: p1 fulfils with aa, so then gets aa although p2 throws")
    func raceFulfilsExample() async throws {
        let steps = Recorder<String>()
        let p1 = AYPromise.with { "aa" }
        let p2 = AYPromise.with { () throws -> PromiseValue in throw TestError(5) }
        let p3 = AYPromise.withResolve { resolve in resolve("cc") }
        let promise = AYPromise.race([p1, p2, p3])
            .then { result in steps.record("then \(result as! String)") }
            .catch { _ in steps.record("catch") }
        _ = try await value(of: promise)
        #expect(steps.all == ["then aa"])
    }

    @Test("race: every promise rejects, so catch gets one error carrying all three")
    func raceRejectsExample() async throws {
        let steps = Recorder<String>()
        let p1 = AYPromise.with { () throws -> PromiseValue in throw TestError(6) }
        let p2 = AYPromise.withResolve { resolve in resolve(TestError(7)) }
        let p3 = AYPromise.with { TestError(8) }
        let promise = AYPromise.race([p1, p2, p3])
            .then { _ in steps.record("then") }
            .catch { error in
                let codes = (error as! AYRaceRejectedError).internalErrors.map { ($0 as! TestError).code }
                steps.record("catch \(codes)")
            }
        _ = try await value(of: promise)
        #expect(steps.all == ["catch [6, 7, 8]"])
    }
}
