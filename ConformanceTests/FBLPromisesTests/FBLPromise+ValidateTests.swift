import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL validate")
struct FBLValidateTests {
    @Test("Passes the value on when the predicate returns true")
    func passesTheValue() async throws {
        let checked = Recorder<Int>()
        let validated = FBLPromise(4).validate(on: .global()) { value in
            checked.record(value)
            return value.isMultiple(of: 2)
        }
        #expect(try await value(of: validated) == 4)
        #expect(checked.all == [4])
    }

    @Test("Rejects with validationFailure when the predicate returns false")
    func rejectsWhenThePredicateFails() async throws {
        let validated = FBLPromise(3).validate(on: .global()) { $0.isMultiple(of: 2) }
        let failure = try await error(of: validated)
        #expect(failure as? PromiseError == .validationFailure)
    }

    @Test("Waits for a pending source")
    func waitsForAPendingSource() async throws {
        let source = FBLPromise<String>.pending()
        let validated = source.validate(on: .global()) { !$0.isEmpty }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { source.fulfill("ok") }
        #expect(try await value(of: validated) == "ok")
    }

    @Test("A rejection passes through without calling the predicate")
    func rejectionPassesThrough() async throws {
        let calls = Recorder<Int>()
        let validated = FBLPromise<Int>(TestError(1)).validate(on: .global()) { value in
            calls.record(value)
            return true
        }
        let failure = try await error(of: validated)
        #expect(failure as? TestError == TestError(1))
        #expect(calls.all.isEmpty)
    }

    @Test("The predicate runs on the given queue")
    func runsOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.validate.queue")
        let onQueue = Recorder<Bool>()
        let validated = FBLPromise(1).validate(on: tagged.queue) { _ in
            onQueue.record(tagged.isCurrent)
            return true
        }
        #expect(try await value(of: validated) == 1)
        #expect(onQueue.all == [true])
    }

    @Test("Works with the default queue")
    func defaultQueue() async throws {
        let validated = FBLPromise(10).validate { $0 > 5 }
        #expect(try await value(of: validated) == 10)
    }
}
