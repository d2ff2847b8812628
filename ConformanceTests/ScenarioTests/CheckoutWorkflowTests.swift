import AYPromises
import Dispatch
import FBLPromises
import Foundation
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 6: the checkout workflow of the checkout article (Reports/originals.md): order, then pay, then check, with one error
// handler for the whole flow. The payment can be declined: then `check` must never be called and
// the handler must run exactly once. Reports/design-review.md shows these four functions side by
// side; DocumentationTests checks that its text is the code between the snippet markers below.

// MARK: - The four styles

// snippet: checkout-fbl
/// FBL: typed steps; `catch` observes the error and passes the rejection on.
func fblCheckout(_ shop: Shop, onError: @escaping @Sendable (any Error) -> Void) -> FBLPromise<Confirmation> {
    shop.order.fbl("c1")
        .then { order in shop.pay.fbl(order) }
        .then { receipt in shop.check.fbl(receipt) }
        .catch { error in onError(error) }
}
// end-snippet

// snippet: checkout-ay
/// AY: untyped steps; `catch` recovers (here with `nil`), so the chain fulfils after an error.
func ayCheckout(_ shop: Shop, onError: @escaping @Sendable (any Error) -> Void) -> AYPromise {
    shop.order.ay("c1")
        .then { order in shop.pay.ay(order as! Order) }
        .then { receipt in shop.check.ay(receipt as! Receipt) }
        .catch { error in onError(error) }
}
// end-snippet

// snippet: checkout-qx
/// QX: untyped steps; the `catch` block decides what follows (rethrow to stay rejected).
func qxCheckout(_ shop: Shop, onError: @escaping @Sendable (any Error) -> Void) -> QXPromise {
    shop.order.qx("c1")
        .then { order in shop.pay.qx(order as! Order) }
        .then { receipt in shop.check.qx(receipt as! Receipt) }
        .catch { error in
            onError(error)
            throw error
        }
}
// end-snippet

// snippet: checkout-qn
/// QN: a serial task; the one error handler is the `failure` callback of `start`.
func qnCheckout(_ shop: Shop) -> QNAsyncSerialTask<Confirmation> {
    QNAsyncSerialTask(
        taskID: "checkout",
        buildBlocks: [
            { _ in .required(shop.order.qn("c1")) },
            { previous in .required(shop.pay.qn(previous!.result(as: Order.self)!)) },
            { previous in .required(shop.check.qn(previous!.result(as: Receipt.self)!)) },
        ],
        resultGenerate: { subStates in subStates.last!.result(as: Confirmation.self)! }
    )
}
// usage: qnCheckout(shop).start(success: { confirmation in ... }, failure: { error in ... })
// end-snippet

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

private let confirmed = Confirmation(orderID: "o-c1", status: "confirmed")

@Suite("Scenario 6: the checkout workflow (order, pay, check, one error handler)")
struct CheckoutWorkflowTests {
    // MARK: FBL

    @Test("FBL: the three steps run in order and the handler is not called")
    func fbl() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: fblCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("FBL: payment declined: check is skipped, the handler runs once, the promise stays rejected")
    func fblDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: fblCheckout(shop) { errors.record($0) })
        #expect(rejection(of: result) is PaymentDeclined)
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }

    // MARK: AY

    @Test("AY: the three steps run in order and the handler is not called")
    func ay() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: ayCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() as? Confirmation == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("AY: payment declined: check is skipped, the handler runs once, the chain recovers with nil")
    func ayDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: ayCheckout(shop) { errors.record($0) })
        #expect(try result.get() == nil)  // AY's catch recovers: the caller sees a fulfilment
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }

    // MARK: QX

    @Test("QX: the three steps run in order and the handler is not called")
    func qx() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: qxCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() as? Confirmation == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("QX: payment declined: check is skipped, the handler runs once and rethrows")
    func qxDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: qxCheckout(shop) { errors.record($0) })
        #expect(rejection(of: result) is PaymentDeclined)
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(shop.log.all == Shop.declinedLog)
    }

    // MARK: QN

    @Test("QN: the three sub-tasks run in order; success is called once")
    func qn() async throws {
        let shop = Shop(paymentFails: false)
        let confirmation = try await awaitCompletion("the checkout") { complete in
            qnCheckout(shop).start(on: .main, success: { complete(.success($0)) }) { error in
                Issue.record("failed: \(error)")
            }
        }
        #expect(confirmation == confirmed)
        #expect(shop.log.all == Shop.happyLog)
    }

    @Test("QN: payment declined: check is never built, failure is called once")
    func qnDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        try await waitUntil("the failure") { done in
            qnCheckout(shop).start(on: .main, success: { _ in Issue.record("succeeded") }) { error in
                errors.record(error)
                done()
            }
        }
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }

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
