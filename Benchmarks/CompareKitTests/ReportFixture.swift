import CompareKit

/// A small, fixed report: two scenarios (one curve), four contenders (NIO only in `single`), memory
/// rows.
enum ReportFixture {
    static let report = BenchmarkReport(
        run: RunInfo(
            date: "2026-11-21T12:00:00Z",
            command: "swift run -c release compare",
            commit: "abc1234",
            toolchain: "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
            machine: MachineInfo(os: "Linux 6.1 x86_64", cpu: "Test CPU", cores: 2, memoryBytes: 25_769_803_776),
            quick: false,
            processes: 2,
            repetitions: 3,
            warmups: 1,
            durationSeconds: 312.5,
            peakRSSBytes: 150_000_000
        ),
        contenders: [
            ContenderInfo(name: "Direct", kind: .baseline, summary: "direct calls"),
            ContenderInfo(name: "GCD", kind: .baseline, summary: "raw GCD"),
            ContenderInfo(name: "NIO", kind: .peer, summary: "a peer, the yardstick of FBL's relative targets"),
            ContenderInfo(name: "FBL", kind: .design, summary: "the FBL design"),
        ],
        scenarios: [
            ScenarioResult(
                id: "single",
                title: "single",
                unit: "operation",
                summary: "One resolved promise and one `then`.",
                isCurve: false,
                headlineSize: 1_000,
                sizes: [
                    SizeResult(
                        size: 1_000,
                        units: 1_000,
                        cells: [
                            Cell(
                                contender: "Direct", runs: [[10e-9, 12e-9, 11e-9], [11e-9, 13e-9, 12e-9]],
                                allocationsPerUnit: 0),
                            Cell(
                                contender: "GCD", runs: [[200e-9, 220e-9, 210e-9], [190e-9, 215e-9, 205e-9]],
                                allocationsPerUnit: 1),
                            Cell(
                                contender: "NIO", runs: [[250e-9, 260e-9, 255e-9], [300e-9, 320e-9, 310e-9]],
                                allocationsPerUnit: 2),
                            Cell(
                                contender: "FBL", runs: [[300e-9, 330e-9, 315e-9], [310e-9, 320e-9, 315e-9]],
                                allocationsPerUnit: 5),
                        ])
                ]
            ),
            ScenarioResult(
                id: "chain",
                title: "chain",
                unit: "link",
                summary: "One chain of N links.",
                isCurve: true,
                headlineSize: 100,
                sizes: [10, 100].map { size in
                    SizeResult(
                        size: size,
                        units: 1_000,
                        cells: [
                            Cell(
                                contender: "GCD",
                                runs: [[250e-9, 260e-9, 255e-9], [240e-9, 250e-9, 245e-9]],
                                buildSamples: [50e-9, 60e-9, 55e-9],
                                fireSamples: [200e-9, 200e-9, 200e-9],
                                allocationsPerUnit: 1
                            ),
                            Cell(
                                contender: "FBL",
                                runs: [[350e-9, 380e-9, 360e-9], [340e-9, 370e-9, 360e-9]].map { run in
                                    run.map { $0 * (size == 10 ? 1.2 : 1) }
                                },
                                buildSamples: [150e-9, 180e-9, 160e-9],
                                fireSamples: [200e-9, 200e-9, 200e-9],
                                allocationsPerUnit: 4,
                                metrics: ["stepsRun": 501]
                            ),
                        ]
                    )
                }
            ),
        ],
        memory: [
            MemoryResult(contender: "GCD", bytesPerPending: 32, allocationsPerPending: 1),
            MemoryResult(contender: "FBL", bytesPerPending: 300, allocationsPerPending: 5.5),
        ]
    )

    /// The fixture's own record.
    static let record = RunRecord(report: report)
}
