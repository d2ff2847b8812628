import Dispatch
import Foundation
import TestSupport
import Testing

// Scenario 6: the checkout workflow of the checkout article (Reports/originals.md): order, then pay, then check, with one error
// handler for the whole flow. The payment can be declined: then `check` must never be called and
// the handler must run exactly once. Reports/design-review.md shows these four functions side by
// side; DocumentationTests checks that its text is the code between the snippet markers below
// and in each design's `<Name>Scenarios.swift`.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

// MARK: - Swift concurrency, the baseline

// snippet: checkout-swift-concurrency
/// Swift concurrency: typed steps in one `do`; the one error handler is its `catch`.
func swiftConcurrencyCheckout(_ shop: Shop, onError: @Sendable (any Error) -> Void) async throws -> Confirmation {
    do {
        let order = try await shop.order.async("c1")
        let receipt = try await shop.pay.async(order)
        return try await shop.check.async(receipt)
    } catch {
        onError(error)
        throw error
    }
}
// end-snippet

/// The confirmation of a successful checkout of cart `c1`.
let confirmed = Confirmation(orderID: "o-c1", status: "confirmed")

@Suite("Scenario 6: the checkout workflow (order, pay, check, one error handler)")
struct CheckoutWorkflowTests {
    // MARK: Swift concurrency

    @Test("Swift concurrency: the three awaits run in order and the handler is not called")
    func swiftConcurrency() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<any Error>()
        #expect(try await swiftConcurrencyCheckout(shop) { errors.record($0) } == confirmed)
        #expect(errors.count == 0)
        #expect(shop.log.all == Shop.happyLog)
    }

    @Test("Swift concurrency: payment declined: check is never called, the handler runs once, the error is thrown")
    func swiftConcurrencyDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await awaitOutcome("the checkout") {
            try await swiftConcurrencyCheckout(shop) { errors.record($0) }
        }
        #expect(rejection(of: result) is PaymentDeclined)
        #expect(errors.count == 1)
        #expect(shop.log.all == Shop.declinedLog)
    }
}
