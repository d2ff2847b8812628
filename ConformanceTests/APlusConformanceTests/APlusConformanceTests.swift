import APlusSuite
import DesignRegistry
import Foundation
import PromiseInterface
import TestSupport
import Testing

/// One Promises/A+ case for one design, named so that each reports on its own line.
struct DesignCase: Sendable, CustomTestStringConvertible {
    let design: Design
    let aplusCase: APlusCase

    var testDescription: String { "\(design.rawValue) \(aplusCase.name)" }

    /// Every case of the suite for every registered design, or for the designs named in the
    /// environment variable `APLUS_DESIGNS` (comma-separated, e.g. `APLUS_DESIGNS=AY,QX`), a
    /// shortcut while working on one design. CI never sets it.
    static let all: [DesignCase] = selectedDesigns.flatMap { design in
        cases(for: design.promiseType).map { DesignCase(design: design, aplusCase: $0) }
    }

    static var selectedDesigns: [Design] {
        guard let names = ProcessInfo.processInfo.environment["APLUS_DESIGNS"] else { return Design.allCases }
        let wanted = Set(names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() })
        return Design.allCases.filter { wanted.contains($0.rawValue.uppercased()) }
    }

    /// Opens the existential so the suite is built for the design's concrete promise type.
    static func cases<P: APlusPromise>(for type: P.Type) -> [APlusCase] {
        APlusSuite.cases(for: type)
    }
}

/// The Promises/A+ suite against every registered design.
///
/// The cases rely on the relative timing of main-queue timers (0 < 15 < 50 < 100 < 150 ms), so
/// they run one at a time.
@Suite("Promises/A+", .serialized)
struct APlusConformanceTests {
    @Test("conformance", arguments: DesignCase.all)
    func conformance(_ testCase: DesignCase) async {
        // A case waits for the main queue, which every test of the run shares: the first cases,
        // which run while every other test starts, took up to 16 s under load.
        let outcome = await testCase.aplusCase.run(timeout: defaultTestTimeout)
        switch outcome {
        case .passed:
            break
        case .failed(let failures):
            Issue.record("\(testCase.testDescription): \(failures.joined(separator: "; "))")
        case .timedOut(let failures):
            Issue.record("\(testCase.testDescription): timed out. \(failures.joined(separator: "; "))")
        }
    }
}
