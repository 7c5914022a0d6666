import Foundation
import XCTest

/// `scripts/sweep.sh` through real schedulers: the merged result of every sweep equals the
/// unsharded run's timings.csv and summary.csv apart from measured times.
final class SchedulerSweepTests: XCTestCase {
    /// A single-valued option given twice was taken at its last value by both scripts (the
    /// testbed refuses it), and `check-regressions.sh --out /` was accepted. Refused before
    /// any set-up, build or scheduler, so no scheduler host is needed.
    func testTheScriptsRefuseARepeatedOptionAndTheRoot() throws {
        let scratch = try Sweep.scratch("arguments")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let cases: [([String], String)] = [
            (["bash", Sweep.script("scripts/sweep.sh"), "x.yaml", "1", "--out", "a", "--out", "b"], "sweep: --out is given twice"),
            (["bash", Sweep.script("scripts/sweep.sh"), "x.yaml", "1", "--scheduler=slurm", "--scheduler", "parallel"],
             "sweep: --scheduler is given twice"),
            (["bash", Sweep.script("scripts/check-regressions.sh"), "--tolerance", "0.1", "--tolerance", "0.9"],
             "check-regressions.sh: --tolerance is given twice"),
            (["bash", Sweep.script("scripts/check-regressions.sh"), "--out", "/"], "--out: '/' is the file-system root"),
        ]
        for (arguments, expected) in cases {
            let outcome = try Sweep.run(arguments, in: scratch)
            XCTAssertEqual(outcome.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(outcome.err.contains(expected), outcome.err)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch).filter { !$0.hasPrefix(".") }, [], "nothing written")
    }

    func testFourLocalParallelShardsMergeToTheUnshardedResult() throws {
        try Sweep.requireSchedulerHost()
        let lock = try Sweep.exclusive()
        defer { withExtendedLifetime(lock) {} }
        let scratch = try Sweep.scratch("parallel")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let whole = try Sweep.unsharded(in: scratch)
        let merged = scratch + "/merged"
        // --jobs 4: all four at once, more than this machine's cores when it has fewer than 4.
        let sweep = try Sweep.run(["bash", Sweep.script("scripts/sweep.sh"), Sweep.config, "4", "--scheduler", "parallel",
                                   "--jobs", "4", "--out", merged], in: scratch, environment: ["TESTBED": try Sweep.executable()])
        XCTAssertEqual(sweep.status, 0, sweep.err)
        try Sweep.assertEqualResults(merged, whole)

        let shards = (1...4).map { merged + "-shards/shard-\($0)" }
        for (k, shard) in shards.enumerated() {
            XCTAssertTrue(try String(contentsOfFile: shard + "/run.txt", encoding: .utf8).contains("shard: \(k + 1)/4"))
        }
        let joblog = try String(contentsOfFile: merged + "-shards/joblog.txt", encoding: .utf8)
        XCTAssertEqual(joblog.split(separator: "\n").dropFirst().map { Sweep.fields(String($0)).joined() }.count, 4, joblog)
        let recorded = try String(contentsOfFile: merged + "/environment.txt", encoding: .utf8)
        for (k, shard) in shards.enumerated() {
            XCTAssertTrue(recorded.contains("shard \(k + 1)/4: \(shard);"), recorded)
        }
        if ProcessInfo.processInfo.activeProcessorCount < 4 {
            XCTAssertTrue(sweep.err.contains("sweep: warning: 4 shards at once"), sweep.err)
            XCTAssertTrue(sweep.err.contains("shards ran at once on host"), "merge saw them overlap: \(sweep.err)")
        }
    }

    /// Paths reach each shard as they are: GNU parallel joined the words into one shell
    /// command line, so a config path holding `$(…)` ran it and one holding a space was split.
    /// An `--out` ending in `//` put its shards inside it (merge then refused it, not empty).
    func testPathsWithShellCharactersAndTrailingSlashesReachTheShardsAsTheyAre() throws {
        try Sweep.requireSchedulerHost()
        let lock = try Sweep.exclusive()
        defer { withExtendedLifetime(lock) {} }
        let scratch = try Sweep.scratch("quoting")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let whole = try Sweep.unsharded(in: scratch)
        let directory = scratch + "/with space"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/a$(touch INJECTED).yaml"
        try FileManager.default.copyItem(atPath: Sweep.config, toPath: config)
        let sweep = try Sweep.run(["bash", Sweep.script("scripts/sweep.sh"), config, "2", "--out", "merged x//"],
                                  in: scratch, environment: ["TESTBED": try Sweep.executable()])
        XCTAssertEqual(sweep.status, 0, sweep.err)
        try Sweep.assertEqualResults(scratch + "/merged x", whole)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch + "/merged x-shards/shard-2/run.txt"), "shards beside the result")
        for place in [scratch, directory, Sweep.repository.path] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: place + "/INJECTED"), "the config path was run as a command in \(place)")
        }
    }

    func testCpusPerShardPinsEachParallelShardToItsOwnCores() throws {
        try Sweep.requireSchedulerHost()
        let lock = try Sweep.exclusive()
        defer { withExtendedLifetime(lock) {} }
        let scratch = try Sweep.scratch("pinned")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let merged = scratch + "/merged"
        let sweep = try Sweep.run(["bash", Sweep.script("scripts/sweep.sh"), Sweep.config, "3", "--cpus-per-shard", "1",
                                   "--out", merged], in: scratch, environment: ["TESTBED": try Sweep.executable()])
        XCTAssertEqual(sweep.status, 0, sweep.err)
        XCTAssertFalse(sweep.err.contains("shards at once"), "one shard per core by default: \(sweep.err)")
        XCTAssertFalse(sweep.err.contains("ran at once on host"), sweep.err)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for k in 1...3 {
            let environment = try Sweep.environment(merged + "-shards/shard-\(k)")
            let allowed = try XCTUnwrap(environment["cpus allowed"])
            XCTAssertNotNil(Int(allowed), "shard \(k) pinned to one core, got '\(allowed)'")
            XCTAssertLessThan(Int(allowed) ?? cores, cores)
        }
    }

    func testParallelOverSSHToTwoHostsMergesToTheUnshardedResult() throws {
        try Sweep.requireSchedulerHost()
        let lock = try Sweep.exclusive()
        defer { withExtendedLifetime(lock) {} }
        let scratch = try Sweep.scratch("ssh")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let hosts = scratch + "/hosts"
        let up = try Sweep.run(["bash", Sweep.script("scripts/sweep-test-hosts.sh"), "up", hosts, "2"], in: scratch)
        var down: Sweep.Result?
        defer {
            if down == nil { _ = try? Sweep.run(["bash", Sweep.script("scripts/sweep-test-hosts.sh"), "down", hosts], in: scratch) }
        }
        XCTAssertEqual(up.status, 0, up.err)
        let logins = try String(contentsOfFile: hosts + "/sshlogins", encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(logins.count, 2)

        let whole = try Sweep.unsharded(in: scratch)
        let merged = scratch + "/merged"
        let sweep = try Sweep.run(["bash", Sweep.script("scripts/sweep.sh"), Sweep.config, "4", "--out", merged]
                                    + logins.flatMap { ["--sshlogin", $0] },
                                  in: scratch, environment: ["TESTBED": try Sweep.executable()])
        XCTAssertEqual(sweep.status, 0, sweep.err)
        try Sweep.assertEqualResults(merged, whole)
        let ranOn = Set(try (1...4).map { try Sweep.environment(merged + "-shards/shard-\($0)")["host"] ?? "?" })
        XCTAssertEqual(ranOn, ["sweep-h1", "sweep-h2"], "shards ran on both hosts")
        XCTAssertTrue(sweep.err.contains("testbed: warning: shards ran on 2 hosts (sweep-h1, sweep-h2)"), sweep.err)

        down = try Sweep.run(["bash", Sweep.script("scripts/sweep-test-hosts.sh"), "down", hosts], in: scratch)
        XCTAssertEqual(down?.status, 0, down?.err ?? "")
        let namespaces = try Sweep.run(["ip", "netns", "list"], in: scratch).out
        XCTAssertFalse(namespaces.contains("sweep-h"), namespaces)
        XCTAssertEqual(try Sweep.run(["pgrep", "-f", hosts], in: scratch).out, "", "no sshd of the test hosts is left")
    }

    func testSlurmClusterRunsAnArrayOfThreeShardsAndLeavesNoDaemon() throws {
        try Sweep.requireSchedulerHost()
        let lock = try Sweep.exclusive()
        defer { withExtendedLifetime(lock) {} }
        let scratch = try Sweep.scratch("slurm")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // sweep.sh installs Slurm when sbatch is missing; the cluster script needs the daemons too.
        let setup = try Sweep.run(["bash", Sweep.script("scripts/setup.sh"), "--sweep"], in: scratch)
        XCTAssertEqual(setup.status, 0, setup.err)
        // A machine may run its own Slurm; the test's daemons are those that were not there before.
        let daemons = ["slurmctld", "slurmd", "slurmstepd", "munged"]
        let before = try daemons.map { try Sweep.processes(named: $0) }
        let cluster = scratch + "/cluster"
        let up = try Sweep.run(["bash", Sweep.script("scripts/slurm/local-cluster.sh"), "up", cluster], in: scratch)
        var down: Sweep.Result?
        defer {
            if down == nil { _ = try? Sweep.run(["bash", Sweep.script("scripts/slurm/local-cluster.sh"), "down", cluster], in: scratch) }
        }
        XCTAssertEqual(up.status, 0, up.err)
        let started = try Sweep.run(["pgrep", "-a", "-f", cluster], in: scratch).out
        for daemon in ["munged", "slurmctld", "slurmd"] {
            XCTAssertTrue(started.contains(daemon + " "), "\(daemon) is up in \(cluster): \(started)")
        }

        let whole = try Sweep.unsharded(in: scratch)
        let merged = scratch + "/merged"
        let sweep = try Sweep.run(["bash", Sweep.script("scripts/sweep.sh"), Sweep.config, "3", "--scheduler", "slurm",
                                   "--cpus-per-shard", "1", "--out", merged], in: scratch,
                                  environment: ["TESTBED": try Sweep.executable(), "SLURM_CONF": cluster + "/slurm.conf"])
        XCTAssertEqual(sweep.status, 0, sweep.err)
        try Sweep.assertEqualResults(merged, whole)
        let job = try String(contentsOfFile: merged + "-shards/slurm-job-id.txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for k in 1...3 {
            let log = try String(contentsOfFile: merged + "-shards/slurm-\(job)_\(k).out", encoding: .utf8)
            XCTAssertTrue(log.contains("testbed-sweep: shard \(k)/3 of \(Sweep.config)"), log)
            XCTAssertTrue(try String(contentsOfFile: merged + "-shards/shard-\(k)/run.txt", encoding: .utf8)
                .contains("shard: \(k)/3"))
            // --cpus-per-task=1, bound by the cluster's task/affinity: one core per shard.
            let allowed = try Sweep.environment(merged + "-shards/shard-\(k)")["cpus allowed"] ?? "?"
            XCTAssertNotNil(Int(allowed), "shard \(k) bound to one core, got '\(allowed)'")
        }
        XCTAssertFalse(sweep.err.contains("ran at once on host"), "Slurm never ran more shards than cores: \(sweep.err)")

        down = try Sweep.run(["bash", Sweep.script("scripts/slurm/local-cluster.sh"), "down", cluster], in: scratch)
        XCTAssertEqual(down?.status, 0, down?.err ?? "")
        XCTAssertEqual(try daemons.map { try Sweep.processes(named: $0) }, before, "no daemon of the test is left running")
        XCTAssertEqual(try Sweep.run(["pgrep", "-a", "-f", cluster], in: scratch).out, "")
    }
}
