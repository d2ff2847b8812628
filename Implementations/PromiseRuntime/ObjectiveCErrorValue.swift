import Foundation

/// The error a value stands for in an Objective-C promise library, which rejects a promise
/// fulfilled with an `NSError` instead of fulfilling it; `nil` if the value fulfils.
///
/// A design that keeps that rule of its original uses this (Promises/A+ has no such rule: 2.3.4 fulfils with
/// any value that is not a thenable). In Objective-C a value is an object, and it rejects if that
/// object is an `NSError`. The same outcome, decided in Swift: a value rejects when it is an
/// `NSError`, or an `Error` whose type Foundation does not bridge to an Objective-C object of its
/// own (a Swift error type reaches Objective-C as an `NSError`). A `String` reaches it as an
/// `NSString` and fulfils, even if the program declared `extension String: Error {}` for
/// `throw "message"`: the Objective-C library this rule comes from fixed exactly that in 2022 (its
/// Swift layer checks the value's dynamic type against `NSError` instead of casting to `Error`)
/// and keeps a test for it.
/// Casting with `as? any Error` instead would make every promise of `String` in such a program
/// reject.
///
/// - Parameter value: A value a promise is being fulfilled or resolved with.
/// - Returns: The error to reject with, or `nil` if the value fulfils.
public func objectiveCRejection(in value: Any) -> (any Error)? {
    if type(of: value) is NSError.Type, let error = value as? NSError { return error }
    guard let error = value as? any Error else { return nil }
    // A type Foundation bridges (`String`, numbers, `UUID`, collections, ...) reaches Objective-C
    // as its own object, which is not an `NSError`.
    if type(of: value) is any _ObjectiveCBridgeable.Type { return nil }
    return error
}
