import CompareKit
import Foundation
import Testing

@Suite("compare: where a run writes")
struct OutputFolderTests {
    static let full = OutputFolder.Run(scenariosNamed: false, contendersNamed: false, quick: false, repetitions: nil)

    @Test("the full default run writes Reports/; the default processes and repetitions named are still the full run")
    func fullRun() throws {
        #expect(try OutputFolder.folder(explicit: nil, for: Self.full) == "Reports")
        var named = Self.full
        named.processes = 3
        named.repetitions = 5
        #expect(try OutputFolder.folder(explicit: nil, for: named) == "Reports")
        #expect(try OutputFolder.folder(explicit: "/tmp/x", for: Self.full) == "/tmp/x")
    }

    @Test(
        "a narrowed run writes to the partial-run folder unless told another",
        arguments: [
            OutputFolder.Run(scenariosNamed: true, contendersNamed: false, quick: false, repetitions: nil),
            OutputFolder.Run(scenariosNamed: false, contendersNamed: true, quick: false, repetitions: nil),
            OutputFolder.Run(scenariosNamed: false, contendersNamed: false, quick: true, repetitions: nil),
            OutputFolder.Run(scenariosNamed: false, contendersNamed: false, quick: false, repetitions: 3),
            OutputFolder.Run(
                scenariosNamed: false, contendersNamed: false, quick: false, processes: 1, repetitions: nil),
            OutputFolder.Run(
                scenariosNamed: false, contendersNamed: false, quick: false, repetitions: nil, asBuilt: true),
        ])
    func narrowedRun(_ run: OutputFolder.Run) throws {
        #expect(!run.isFull)
        #expect(try OutputFolder.folder(explicit: nil, for: run) == OutputFolder.partialRunFolder)
        #expect(try OutputFolder.folder(explicit: "/tmp/smoke", for: run) == "/tmp/smoke")
    }

    @Test("a narrowed run told to write Reports/ (however spelled) is refused with a clear error")
    func narrowedIntoReports() {
        let narrowed = OutputFolder.Run(scenariosNamed: true, contendersNamed: false, quick: false, repetitions: nil)
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let absolute = packageRoot.appendingPathComponent("Benchmarks/../Reports").path
        for spelling in ["Reports", "./Reports", "Reports/", "Benchmarks/../Reports", absolute] {
            #expect(throws: OutputFolder.WouldReplaceFullReport.self) {
                try OutputFolder.folder(explicit: spelling, for: narrowed)
            }
        }
    }
}
