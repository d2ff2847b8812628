// swift-format-ignore-file
// (The snippets are the documentation's text, aligned comments included.)
import AYPromises
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// The "Moving to and from async/await" sections of Reports/fbl.md, ay.md, qx.md and qn.md: each
// design's promise awaited, and an async function wrapped as the design's promise. The tests run
// each snippet and check what it produced.

struct Profile: Sendable, Equatable { let user: String }

/// An async API, as a user's code would have it.
struct ProfileAPI: Sendable {
    func profile(of user: String) async throws -> Profile {
        await Task.yield()
        return Profile(user: user)
    }
}

@Suite("Documentation: moving between each design and async/await")
struct MigrationSnippetTests {
    let api = ProfileAPI()

    @Test("FBL: await a promise; an async function as a promise")
    func fbl() async throws {
        let fetchUser = { @Sendable (id: Int) in FBLPromise("user-\(id)") }
        // snippet: migrate-fbl
        let user = try await fetchUser(42).value             // suspends until settled; a rejection throws
        let profile = FBLPromise<Profile> { try await api.profile(of: user) }   // starts now, in a Task
        // end-snippet
        #expect(try await profile.value == Profile(user: "user-42"))
    }

    @Test("AY: await a promise; an async function as a promise")
    func ay() async throws {
        let fetchUser = { @Sendable (id: Int) in AYPromise.with("user-\(id)") }
        // snippet: migrate-ay
        let user = try await fetchUser(42).value(as: String.self)   // untyped: name the type
        let profile = AYPromise.withResolve { resolve in
            Task {
                do { resolve(try await api.profile(of: user)) } catch { resolve(error) }   // an Error rejects
            }
        }
        // end-snippet
        #expect(try await profile.value(as: Profile.self) == Profile(user: "user-42"))
    }

    @Test("QX: await a promise; an async function as a promise")
    func qx() async throws {
        let fetchUser = { @Sendable (id: Int) in QXPromise(fulfilledWith: "user-\(id)") }
        // snippet: migrate-qx
        let user = try await fetchUser(42).value as! String      // untyped: cast
        let profile = QXPromise { fulfill, reject in
            Task {
                do { fulfill(try await api.profile(of: user)) } catch { reject(error) }
            }
        }
        // end-snippet
        #expect(try await profile.value as? Profile == Profile(user: "user-42"))
    }

    @Test("QN: await a task; an async function as a task, cancellation both ways")
    func qn() async throws {
        let fetchUser = { @Sendable (id: Int) in QNAsyncBlockTask<String> { _ in "user-\(id)" } }
        // snippet: migrate-qn
        let user = try await fetchUser(42).value   // starts the task; cancelling this Task cancels it
        let profile = QNAsyncManualTask<Profile> { task in   // runs when the task is started
            let work = Task {
                do { task.succeed(try await api.profile(of: user)) } catch { task.fail(error) }
            }
            task.onCancel { work.cancel() }                  // cancelling the task cancels the work
        }
        // end-snippet
        #expect(try await profile.value == Profile(user: "user-42"))
    }
}
