import TestSupport

// The table "What a block's result does to the next promise" of Reports/design-review.md, cell by
// cell: what a block that returns nothing, returns an `Error` value, returns another design's
// promise or throws does to the next promise, in each design. Cells marked "does not compile"
// there have no test here.
// Each design's suite (`@Suite("Block results: <Name>")`) is in its folder beside this file
// (`FBL/`, `AY/`, …): a design adds its own folder and edits nothing here.

/// A block that returns nothing: it observes its argument and returns `Void`.
@Sendable func note<Observed: Sendable>(_: Observed) {}

/// Waits for an outcome of any design, through `value`.
func outcome<Value: Sendable>(
    _ value: @escaping @Sendable () async throws -> Value
) async throws -> Result<Value, any Error> {
    try await awaitOutcome("the next promise", of: value)
}
