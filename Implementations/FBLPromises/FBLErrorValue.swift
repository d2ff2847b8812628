import Foundation

/// The error a value stands for, if FBL rejects with it rather than fulfilling: google/promises'
/// rule, which Promises/A+ does not have (2.3.4 fulfils with any value that is not a thenable).
///
/// A value rejects when it is an `NSError`, or an `Error` whose type Foundation does not bridge to
/// an Objective-C object of its own. That is what google/promises does: its Swift layer checks
/// whether the value's dynamic type is `NSError` (not whether it casts to `Error`), and hands any
/// other value to its Objective-C core bridged to an object, which rejects if that object is an
/// `NSError`. A Swift error type becomes one; a `String` becomes an `NSString` and fulfils, even if
/// the program declared `extension String: Error {}` for `throw "message"` (google fixed exactly
/// that in 2022 and keeps a test for it). Casting with `as? any Error` instead would make every
/// promise of `String` in such a program reject.
///
/// - Parameter value: A value a promise is being fulfilled or resolved with.
/// - Returns: The error to reject with, or `nil` if the value fulfils.
@usableFromInline
func fblRejection(in value: Any) -> (any Error)? {
    if type(of: value) is NSError.Type, let error = value as? NSError { return error }
    guard let error = value as? any Error else { return nil }
    // A type Foundation bridges (`String`, numbers, `UUID`, collections, ...) reaches google's
    // Objective-C core as its own object, which is not an `NSError`.
    if type(of: value) is any _ObjectiveCBridgeable.Type { return nil }
    return error
}
