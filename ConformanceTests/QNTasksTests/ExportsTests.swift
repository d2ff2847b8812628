import QNTasks
import Testing

// This file imports QNTasks and nothing else from this package: it compiles only while the
// shared types are nameable from `import QNTasks` alone.

@Suite("QN: its own import names the shared types")
struct QNExportsTests {
    @Test("a task is a Thenable, named with no other import")
    func sharedTypesNameable() async throws {
        let task = QNAsyncBlockTask<Int> { _ in 3 }
        let thenable: any Thenable = task
        #expect(thenable is QNAsyncBlockTask<Int>)
        #expect(try await task.value == 3)
    }
}
