import AYPromises
import Testing

// This file imports AYPromises and nothing else from this package: it compiles only while the
// types of AY's public API are nameable from `import AYPromises` alone.

@Suite("AY: its own import names the shared types of its API")
struct AYExportsTests {
    @Test("PromiseValue, PromiseState and Thenable, with no other import")
    func sharedTypesNameable() async throws {
        let promise = AYPromise.with(1 as PromiseValue)
        let value: PromiseValue = try await promise.value
        #expect(value as? Int == 1)
        let state: PromiseState = promise.state
        guard case .fulfilled(let settled) = state else {
            Issue.record("expected fulfilled, got \(state)")
            return
        }
        #expect(settled as? Int == 1)
        let thenable: any Thenable = promise
        #expect(thenable is AYPromise)
        #expect([PromiseValue].self == [(any Sendable)?].self)
    }
}
