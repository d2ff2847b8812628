import Dispatch
import Testing

@testable import XcodeDefaults

/// The documentation's snippets, run in a module with Xcode 26's defaults: each snippet's last
/// callback must run (a block wrongly inferred to be main-actor isolated would trap when a queue
/// other than the main one runs it).
@Suite("Xcode 26 defaults: the documentation's snippets run")
struct XcodeDefaultsTests {
    @Test("README: FBL, AY and QX chains run to their last step")
    func readmeChains() async throws {
        FBLReadme.example()
        try await AYReadme.example()
        QXReadme.example()
        try await ranAll(["review-fbl", "review-ay", "review-qx"])
    }

    @Test("README: the command-line program's main-queue block runs")
    func readmeCommandLine() async throws {
        try await CommandLineReadme.main()
        #expect(Ran.shared.count("readme-command-line") == 1)
    }

    @Test("README: the main-actor view model receives the avatars and the progress of all four designs")
    func readmeMainActor() async throws {
        let model = MainActorReadme.ProfileModel()
        model.load()
        // QN's task reports 0.5 and succeeds as it starts; this test is on the main actor too, so
        // each main-actor callback runs between two of its hops.
        try await hop(until: "QN's progress and avatars") { model.fraction == 0.5 && !model.avatars.isEmpty }
        let (_, qx) = MainActorReadme.qxDownload
        qx.progress(0.25)
        try await hop(until: "QX's progress") { model.fraction == 0.25 }
        model.avatars = []
        qx.fulfill([Avatar(name: "a")])
        try await hop(until: "QX's avatars") { model.avatars.map(\.name) == ["a"] }
        QNReadme.example()  // a serial task cancelled at once: runs and ends without a trap
    }

    @Test("DocC: each design's getting-started chain runs to its last step")
    func doccChains() async throws {
        try await FBLGettingStarted.example()
        try await AYGettingStarted.example()
        QXGettingStarted.example()
        try await ranAll(["docc-fbl", "docc-ay", "docc-qx"])
    }

    @Test("DocC: QN's example runs as written: the loader cancelled, the race won by a mirror")
    func doccQN() async throws {
        try await QNGettingStarted().example()
    }

    /// Waits until every name was recorded, at most 60 seconds.
    func ranAll(_ names: [String]) async throws {
        for name in names {
            let arrived = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let once = Once(continuation)
                Ran.shared.whenRecorded(name) { once.resume(true) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 60) { once.resume(false) }
            }
            #expect(arrived, "\(name): its last callback never ran")
        }
    }

    /// Hops through the main queue until `condition` holds, at most 60 seconds.
    func hop(until what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(what): never arrived")
                return
            }
            await mainQueueHop()
        }
    }

    /// One hop through the main queue.
    func mainQueueHop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}
