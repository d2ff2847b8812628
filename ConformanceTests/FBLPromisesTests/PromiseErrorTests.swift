import FBLPromises
import Foundation
import TestSupport
import Testing

@Suite("FBL PromiseError")
struct PromiseErrorTests {
    @Test("PromiseError(_:) recognises a PromiseError, or an NSError with google/promises' domain and codes")
    func recognisesPromiseErrors() {
        #expect(PromiseError(PromiseError.timedOut) == .timedOut)
        #expect(PromiseError(PromiseError.cycle) == .cycle)
        let domain = "com.google.FBLPromises.Error"
        #expect(PromiseError(NSError(domain: domain, code: 1)) == .timedOut)
        #expect(PromiseError(NSError(domain: domain, code: 2)) == .validationFailure)
        #expect(PromiseError(NSError(domain: domain, code: 99)) == nil)
        #expect(PromiseError(NSError(domain: "other", code: 1)) == nil)
        #expect(PromiseError(TestError(1)) == nil)
    }

    @Test("seen as an NSError, a PromiseError has google/promises' domain and codes, and its description")
    func bridgesToGoogleDomainAndCodes() {
        let timedOut = PromiseError.timedOut as NSError
        #expect(timedOut.domain == "com.google.FBLPromises.Error")
        #expect(timedOut.code == 1)
        #expect((PromiseError.validationFailure as NSError).code == 2)
        #expect(PromiseError.timedOut.localizedDescription == PromiseError.timedOut.description)
        // The round trip through NSError, as errors come back from Objective-C code.
        #expect(PromiseError(timedOut) == .timedOut)
    }
}
