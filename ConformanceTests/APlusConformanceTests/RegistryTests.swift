import DesignRegistry
import Foundation
import Testing

/// Adding a design is one folder plus one registry entry: a folder without an entry fails here.
@Suite("Design registry")
struct RegistryTests {
    /// Folders under `Implementations/` that are not designs.
    static let infrastructure: Set<String> = ["SharedPromiseTypes", "PromiseInterface", "DesignRegistry"]

    @Test("every implementation folder is registered, and every entry has a folder")
    func foldersAreRegistered() throws {
        let implementations = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // APlusConformanceTests
            .deletingLastPathComponent()  // ConformanceTests
            .deletingLastPathComponent()  // the package root
            .appendingPathComponent("Implementations")
        let folders = try FileManager.default.contentsOfDirectory(atPath: implementations.path)
            .filter { name in
                var isDirectory: ObjCBool = false
                let path = implementations.appendingPathComponent(name).path
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            }
        let designFolders = Set(folders).subtracting(Self.infrastructure)
        let registered = Set(Design.allCases.map(\.moduleName))
        #expect(!designFolders.isEmpty)
        #expect(
            designFolders == registered,
            "unregistered: \(designFolders.subtracting(registered)); no folder: \(registered.subtracting(designFolders))"
        )
    }

    @Test("names are unique")
    func uniqueNames() {
        #expect(Set(Design.allCases.map(\.rawValue)).count == Design.allCases.count)
        #expect(Set(Design.allCases.map(\.moduleName)).count == Design.allCases.count)
    }
}
