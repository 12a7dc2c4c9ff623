import Foundation

/// Waiting on a built program by what it says and does, not by a fixed time a loaded machine stretches.
enum Settling {
    /// Polls `condition` until it holds (true) or `seconds` pass (false): a limit that catches a hang, never
    /// one that judges speed.
    static func waitUntil(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// A process's threads, every thread's context switches, and its CPU time in clock ticks (/proc).
    struct Activity: Equatable, CustomStringConvertible {
        var threads: [String]
        var switches: [String: Int]
        var ticks: Int

        init(of pid: Int32) {
            let tasks = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).sorted()
            threads = tasks
            switches = [:]
            for task in tasks {
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                switches[task] = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                    .compactMap { Int($0.split(separator: "\t").last ?? "") }.reduce(0, +)
            }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ")"
            // After the command's ")": the state is field 3, utime 14 and stime 15.
            let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
            ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        }

        var description: String { "threads \(threads), switches \(switches), \(ticks) ticks" }
    }

    /// Whether `pid` is quiet for `seconds` (no thread comes, goes or is switched in, no tick of CPU) at some
    /// time within `limit`, and the changes seen before it. What a process does after its start (its launch,
    /// later on a loaded machine) delays the window; a waker every few seconds never lets it close.
    static func quietWindow(of pid: Int32, seconds: Double, within limit: Double = 60) -> (quiet: Bool, changes: [String]) {
        var since = Date(), base = Activity(of: pid), changes: [String] = []
        let deadline = Date().addingTimeInterval(limit)
        while Date().timeIntervalSince(since) < seconds {
            if Date() > deadline { return (false, changes) }
            Thread.sleep(forTimeInterval: 0.25)
            let now = Activity(of: pid)
            if now != base {
                changes.append("\(now)")
                (since, base) = (Date(), now)
            }
        }
        return (true, changes)
    }
}
