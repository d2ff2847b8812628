import FBLPromises
import Testing

// This file imports FBLPromises and nothing else from this package: it compiles only while the
// types of FBL's public API are nameable from `import FBLPromises` alone.

@Suite("FBL: its own import names the shared types of its API")
struct FBLExportsTests {
    @Test("Thenable (what resolve(_:) adopts) and PromiseValue, with no other import")
    func sharedTypesNameable() async throws {
        let source = FBLPromise<PromiseValue>(2 as PromiseValue)
        let thenable: any Thenable = source
        let adopting = FBLPromise<PromiseValue>.pending()
        adopting.resolve(thenable)
        let value: PromiseValue = try await adopting.value
        #expect(value as? Int == 2)
    }
}
