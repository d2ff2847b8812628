import DesignRegistry
import Foundation
import TestSupport
import Testing

/// The checklist for adding a design (CONTRIBUTING, "Adding a design"), one test per step that the
/// compiler does not already enforce, and the rule that makes the checklist short: registering a
/// design edits two existing files, `Package.swift`'s `designModules` and `Design.swift`; the rest
/// is new folders and files of the design's own.
///
/// These tests read the package's own files: the steps are files and lines, and a missing one is
/// named in the failure with its fix.
@Suite("Adding a design: the checklist")
struct DesignChecklistTests {
    /// Folders under `Implementations/` that are not designs.
    static let shared: Set<String> = ["SharedPromiseTypes", "PromiseRuntime"]

    /// The registry's file, the one existing Swift file a new design edits.
    static let registration = "ConformanceTests/DesignRegistry/Design.swift"

    static func read(_ path: String) throws -> String { try PackageFiles.read(path) }

    static func breaks(_ found: [RuleBreak]) -> Comment {
        Comment(rawValue: found.map(\.description).joined(separator: "\n"))
    }

    /// The files and folders that belong to `design` alone: what adding it creates.
    static func ownPaths(of design: Design) -> [String] {
        let name = design.rawValue
        return [
            "Implementations/\(design.moduleName)/",
            "ConformanceTests/\(design.moduleName)Tests/",
            "ConformanceTests/ScenarioTests/\(name)/",
            "ConformanceTests/DesignRegistry/Adapters/\(name)Adapter.swift",
            "ConformanceTests/ReliabilityTests/\(name)ReliabilityTests.swift",
            "Benchmarks/compare/Contenders/\(name).swift",
            "Benchmarks/Costs/CostOperations/\(name)Operations.swift",
            "Reports/\(name.lowercased()).md",
        ]
    }

    static func isOwned(_ path: String, by design: Design) -> Bool {
        ownPaths(of: design).contains { $0.hasSuffix("/") ? path.hasPrefix($0) : path == $0 }
    }

    /// The Swift files of the package's four trees and its manifests, relative to the root.
    static let swiftFiles: [String] =
        ["Implementations", "ConformanceTests", "Benchmarks", "Examples"].flatMap {
            PackageFiles.files(under: $0, suffix: ".swift")
        }

    /// `source`'s lines with their numbers, comments left out (a line that is only a comment, and
    /// the comment at the end of a line).
    static func codeLines(_ source: String) -> [(number: Int, code: Substring)] {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { return nil }
            let code = line.range(of: " //").map { line[..<$0.lowerBound] } ?? line
            return (index + 1, code)
        }
    }

    // MARK: Step 1: the module

    @Test("1. every folder under Implementations/ is a registered design, and every design has its folder")
    func foldersAreRegistered() throws {
        let designFolders = try PackageFiles.subfolders(of: "Implementations").subtracting(Self.shared)
        let registered = Set(Design.allCases.map(\.moduleName))
        #expect(!designFolders.isEmpty)
        var found: [RuleBreak] = []
        for folder in designFolders.subtracting(registered).sorted() {
            found.append(
                RuleBreak(
                    file: "Implementations/\(folder)/", problem: "a folder that no `Design` case registers",
                    fix: "add its case to \(Self.registration), or move the folder", rule: "adding-a-design"))
        }
        for module in registered.subtracting(designFolders).sorted() {
            found.append(
                RuleBreak(
                    file: Self.registration,
                    problem: "a design whose module folder Implementations/\(module)/ is missing",
                    fix: "create the folder, or correct the adapter's `moduleName`", rule: "adding-a-design"))
        }
        #expect(found.isEmpty, Self.breaks(found))
    }

    /// The module names in `Package.swift`'s `designModules`, which makes each design's target,
    /// product and test target.
    static func packageDesignModules() throws -> [String] {
        let manifest = try read("Package.swift")
        let list = try #require(
            manifest.range(of: #"let designModules = \[[^\]]*\]"#, options: .regularExpression).map {
                manifest[$0]
            },
            "Package.swift has no `let designModules = [...]`")
        return list.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("1. Package.swift's designModules lists every design, and nothing else", arguments: Design.allCases)
    func packageListsTheDesign(_ design: Design) throws {
        let modules = try Self.packageDesignModules()
        #expect(
            modules.contains(design.moduleName),
            "Package.swift: designModules leaves out \(design.moduleName). Fix: add \"\(design.moduleName)\" to it. Rule: CONTRIBUTING.md#adding-a-design"
        )
        #expect(Set(modules) == Set(Design.allCases.map(\.moduleName)), "designModules: \(modules)")
    }

    @Test("1. the design has its own tests in ConformanceTests/<module>Tests", arguments: Design.allCases)
    func designHasItsOwnTests(_ design: Design) throws {
        let folder = "ConformanceTests/\(design.moduleName)Tests"
        #expect(
            !PackageFiles.files(under: folder, suffix: ".swift").isEmpty,
            "\(folder)/: no tests. Fix: add one test file per file of the module there. Rule: CONTRIBUTING.md#adding-a-design"
        )
    }

    // MARK: Step 2: the registry entry and the adapter

    @Test("2. the design's adapter to the Promises/A+ suite is in DesignRegistry/Adapters", arguments: Design.allCases)
    func adapterFile(_ design: Design) throws {
        // `adapter` names the adapter type; its file is named after it and declares it.
        let typeName = String(describing: design.adapter)
        #expect(typeName == "\(design.rawValue)Adapter", "name the adapter \(design.rawValue)Adapter")
        let path = "ConformanceTests/DesignRegistry/Adapters/\(typeName).swift"
        let adapter = try #require(
            try? Self.read(path), "\(path): missing. Fix: move the adapter there. Rule: CONTRIBUTING.md#adding-a-design"
        )
        #expect(
            adapter.contains("public enum \(typeName): RegisteredAdapter"),
            "\(path): does not declare `public enum \(typeName): RegisteredAdapter`. Fix: declare it there. Rule: CONTRIBUTING.md#adding-a-design"
        )
    }

    @Test("2. the design's own module knows nothing of the suite or its adapter", arguments: Design.allCases)
    func adapterStaysOutOfTheDesign(_ design: Design) throws {
        var found: [RuleBreak] = []
        for file in PackageFiles.files(under: "Implementations/\(design.moduleName)", suffix: ".swift") {
            for (number, code) in Self.codeLines(try Self.read(file))
            where code.contains("import APlusSuite") || code.contains("APlusAdapter") {
                found.append(
                    RuleBreak(
                        file: file, line: number, problem: "the design names the Promises/A+ suite",
                        fix: "move what needs the suite into the adapter; mark what the adapter needs `package`",
                        rule: "adding-a-design"))
            }
        }
        #expect(found.isEmpty, Self.breaks(found))
    }

    // MARK: Step 3: the contender

    @Test("3. the design has a contender in Benchmarks/compare/Contenders", arguments: Design.allCases)
    func contenderFile(_ design: Design) throws {
        let path = "Benchmarks/compare/Contenders/\(design.rawValue).swift"
        let source = try #require(
            try? Self.read(path),
            "\(path): missing. Fix: write the design's contender there. Rule: CONTRIBUTING.md#adding-a-design")
        #expect(
            source.contains("extension \(design.rawValue)Adapter: ContendingDesign"),
            "\(path): no `extension \(design.rawValue)Adapter: ContendingDesign`. Fix: add it, returning the contender. Rule: CONTRIBUTING.md#adding-a-design"
        )
    }

    @Test("3. CompareKit, the reports' generic layer, names no design", arguments: Design.allCases)
    func compareKitNamesNoDesign(_ design: Design) throws {
        var found: [RuleBreak] = []
        for file in PackageFiles.files(under: "Benchmarks/CompareKit", suffix: ".swift") {
            for (number, code) in Self.codeLines(try Self.read(file))
            where code.range(of: "\\b\(design.rawValue)\\b", options: .regularExpression) != nil {
                found.append(
                    RuleBreak(
                        file: file, line: number, problem: "CompareKit names \(design.rawValue)",
                        fix: "take the design from `Design` or from the caller", rule: "dependencies"))
            }
        }
        #expect(found.isEmpty, Self.breaks(found))
    }

    // MARK: Step 4: the scenarios

    /// The struct of each `@Suite("Scenario N: ...")` in the shared files of ScenarioTests.
    static func scenarioSuites() throws -> [String] {
        var suites: [String] = []
        for file in try FileManager.default.contentsOfDirectory(
            atPath: PackageFiles.root.appendingPathComponent("ConformanceTests/ScenarioTests").path
        ).sorted() where file.hasSuffix(".swift") {
            let source = try Self.read("ConformanceTests/ScenarioTests/\(file)")
            for part in source.components(separatedBy: "@Suite(\"Scenario ").dropFirst() {
                // `@Suite("Scenario 2: ...")\nstruct SeriesTests {`
                guard let declaration = part.range(of: "struct ") else { continue }
                suites.append(String(part[declaration.upperBound...].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        return suites
    }

    /// The display names of the tests in `source`'s `extension <suite> {` block.
    static func tests(extending suite: String, in source: String) -> [String] {
        source.components(separatedBy: "\nextension \(suite) {").dropFirst().flatMap { part in
            // The block ends where the next top-level declaration starts.
            let block = part.components(separatedBy: "\n}").first ?? ""
            return block.components(separatedBy: "@Test(").dropFirst().map { test in
                // `@Test("FBL: ...")` or `@Test(\n "FBL: ...")`
                String(test.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" })
            }
        }
    }

    @Test(
        "4. the design's folder in ScenarioTests extends every scenario suite with a test \"<design>: ...\"",
        arguments: Design.allCases)
    func scenarioCoverage(_ design: Design) throws {
        let suites = try Self.scenarioSuites()
        #expect(suites.count >= 7, "the seven scenario suites: found \(suites)")
        let name = design.rawValue
        let folder = "ConformanceTests/ScenarioTests/\(name)"
        let scenarios = try #require(
            try? Self.read("\(folder)/\(name)Scenarios.swift"),
            "\(folder)/\(name)Scenarios.swift: missing. Fix: write the design's version of every scenario there. Rule: CONTRIBUTING.md#adding-a-design"
        )
        for suite in suites {
            #expect(
                Self.tests(extending: suite, in: scenarios).contains { $0.hasPrefix("\(name): ") },
                "\(folder)/\(name)Scenarios.swift: no `extension \(suite)` with a test named \"\(name): ...\". Fix: add the design's version of that scenario. Rule: CONTRIBUTING.md#adding-a-design"
            )
        }
        let blockResults = try #require(
            try? Self.read("\(folder)/\(name)BlockResultTests.swift"),
            "\(folder)/\(name)BlockResultTests.swift: missing. Fix: pin what each kind of block result does there. Rule: CONTRIBUTING.md#adding-a-design"
        )
        #expect(
            blockResults.contains("@Suite(\"Block results: \(name)"),
            "\(folder)/\(name)BlockResultTests.swift: no suite \"Block results: \(name)\". Fix: name the suite so. Rule: CONTRIBUTING.md#adding-a-design"
        )
    }

    // MARK: Step 5: the costs

    @Test(
        "5. the design's operations are in Benchmarks/Costs/CostOperations/<Name>Operations.swift, each with its budgets",
        arguments: Design.allCases)
    func costBudgets(_ design: Design) throws {
        let name = design.rawValue
        let path = "Benchmarks/Costs/CostOperations/\(name)Operations.swift"
        let operations = try #require(
            try? Self.read(path),
            "\(path): missing. Fix: write the design's operations there, each with its budgets. Rule: CONTRIBUTING.md#adding-a-design"
        )
        #expect(
            operations.contains("extension \(name)Adapter: CostedDesign"),
            "\(path): no `extension \(name)Adapter: CostedDesign`. Fix: add it with the operations and the targets. Rule: CONTRIBUTING.md#adding-a-design"
        )
        // Each operation: a `CountedOperation(...)` or a `.pendingWithOneThen(...)`.
        let measurements = operations.replacingOccurrences(of: ".pendingWithOneThen(", with: "CountedOperation(")
            .components(separatedBy: "CountedOperation(").dropFirst()
        #expect(!measurements.isEmpty, "\(path) has no operation")
        for measurement in measurements {
            #expect(measurement.contains("library: \"\(name)\""), "\(path): an operation of another design")
            // Every design's operation is budgeted in allocations (exact) and in instructions.
            #expect(
                measurement.contains("budget: Budget(allocations: ") && measurement.contains("instructions: "),
                "\(path): an operation without its allocation and instruction budgets. Fix: give it both. Rule: CONTRIBUTING.md#adding-a-design"
            )
        }
    }

    // MARK: Step 6: the documentation

    @Test("6. the design has its report, and its module a README that lists its files", arguments: Design.allCases)
    func documentation(_ design: Design) throws {
        let report = "Reports/\(design.rawValue.lowercased()).md"
        #expect(
            PackageFiles.exists(report),
            "\(report): missing. Fix: write what the design changed from its original, or what it is built from, and why. Rule: CONTRIBUTING.md#adding-a-design"
        )
        // The module's page, which the README's table links: every Swift file of the module in it.
        let page = "Implementations/\(design.moduleName)/README.md"
        let text = (try? Self.read(page)) ?? ""
        #expect(
            !text.isEmpty,
            "\(page): missing. Fix: list the module's operators there, one file each. Rule: CONTRIBUTING.md#adding-a-design"
        )
        let files = PackageFiles.files(under: "Implementations/\(design.moduleName)", suffix: ".swift")
            .map { ($0 as NSString).lastPathComponent }
            .filter { $0 != "Exports.swift" }
        for file in files {
            #expect(
                text.contains("(\(file))"),
                "\(page): does not link \(file). Fix: add it to the list of operators. Rule: CONTRIBUTING.md#adding-a-design"
            )
        }
    }

    // MARK: Two edits to existing files

    @Test("registering a design edits two existing files: Design.swift and Package.swift's designModules")
    func registrationIsTwoEdits() throws {
        var found: [RuleBreak] = []
        let cases = Design.allCases.map { String(describing: $0) }.joined(separator: "|")
        let switchArm = try Regex("case \\.(\(cases))\\b")
        for file in Self.swiftFiles where file != Self.registration {
            let owner = Design.allCases.first { Self.isOwned(file, by: $0) }
            let source = try Self.read(file)
            // A switch over the designs: a new design would have to join it.
            for (number, code) in Self.codeLines(source) where owner == nil && code.contains(switchArm) {
                found.append(
                    RuleBreak(
                        file: file, line: number, problem: "a switch over `Design` outside the registry",
                        fix: "state the fact in each design's adapter or own file, and read it through `Design`",
                        rule: "adding-a-design"))
            }
            // A list of the designs' own types: every design's adapter, contender or operations.
            for suffix in ["Adapter", "Contender", "Operations", "Scenarios"] {
                let names = Design.allCases.map { "\($0.rawValue)\(suffix)" }
                if owner == nil, names.allSatisfy({ source.contains($0) }) {
                    found.append(
                        RuleBreak(
                            file: file, problem: "lists every design's \(suffix.lowercased())",
                            fix: "find them through `Design` (a conformance of each adapter) instead of a list",
                            rule: "adding-a-design"))
                }
            }
        }
        // Package.swift names each design's module once: in designModules.
        let manifest = try Self.read("Package.swift")
        for design in Design.allCases where manifest.components(separatedBy: "\"\(design.moduleName)\"").count != 2 {
            found.append(
                RuleBreak(
                    file: "Package.swift", problem: "names \(design.moduleName) outside designModules",
                    fix: "build the targets from designModules", rule: "adding-a-design"))
        }
        // The example packages read the root's list.
        let examples = try Self.read("Examples/Package.swift")
        for design in Design.allCases where examples.contains("\"\(design.moduleName)\"") {
            found.append(
                RuleBreak(
                    file: "Examples/Package.swift", problem: "lists \(design.moduleName)",
                    fix: "take the designs from the root manifest's designModules", rule: "adding-a-design"))
        }
        #expect(found.isEmpty, Self.breaks(found))
    }

    /// The shared modules, and the modules of the products outside libraries use: the Promises/A+
    /// suite's and the cost products'.
    @Test(
        "the shared modules and the suite's and cost products name no design",
        arguments: [
            "Implementations/SharedPromiseTypes", "Implementations/PromiseRuntime",
            "ConformanceTests/APlusSuite", "ConformanceTests/APlusSuiteTesting", "ConformanceTests/APlusSuiteXCTest",
            "Benchmarks/PromiseCosts", "Benchmarks/PromiseCostsAllocations", "Benchmarks/PromiseCostsTesting",
        ])
    func sharedModulesNameNoDesign(_ module: String) throws {
        // The cost product shows where the designs stand, in one table and the article's sample
        // output; nothing else of it may depend on which designs there are.
        let showsTheDesigns: Set<String> = [
            "Benchmarks/PromiseCosts/DesignCounts.swift",
            "Benchmarks/PromiseCosts/PromiseCosts.docc/MeasuringYourPromiseLibrary.md",
        ]
        let files =
            (PackageFiles.files(under: module, suffix: ".swift") + PackageFiles.files(under: module, suffix: ".md"))
            .filter { !showsTheDesigns.contains($0) }
        #expect(!files.isEmpty)
        // A design's short name, alone or starting a type name ("FBL", "FBL's", "QNAsyncTask",
        // "AYPromise.then"), but not inside a word ("ALWAYS").
        let names = Design.allCases.map(\.rawValue).joined(separator: "|")
        let designName = try Regex("(?:^|[^A-Za-z])(\(names))(?![a-z])")
        var found: [RuleBreak] = []
        for file in files {
            for (number, line) in try Self.read(file).split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            where line.contains(designName) {
                found.append(
                    RuleBreak(
                        file: file, line: number + 1, problem: "a shared module names a design: \(line)",
                        fix: "keep the design's facts in its own module or adapter", rule: "dependencies"))
            }
        }
        #expect(found.isEmpty, Self.breaks(found))
    }

    @Test("names are unique")
    func uniqueNames() {
        #expect(Set(Design.allCases.map(\.rawValue)).count == Design.allCases.count)
        #expect(Set(Design.allCases.map(\.moduleName)).count == Design.allCases.count)
    }
}
