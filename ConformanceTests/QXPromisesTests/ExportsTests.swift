import QXPromises
import Testing

// This file imports QXPromises and nothing else from this package: it compiles only while the
// types of QX's public API are nameable from `import QXPromises` alone.

@Suite("QX: its own import names the shared types of its API")
struct QXExportsTests {
    @Test("PromiseValue and Thenable, with no other import")
    func sharedTypesNameable() async throws {
        let promise = QXPromise(fulfilledWith: 1 as PromiseValue)
        let doubled = promise.then { (value: PromiseValue) -> PromiseValue in (value as! Int) * 2 }
        let value: PromiseValue = try await doubled.value
        #expect(value as? Int == 2)
        let thenable: any Thenable = promise
        #expect(thenable is QXPromise)
        #expect([PromiseValue].self == [(any Sendable)?].self)
    }
}
