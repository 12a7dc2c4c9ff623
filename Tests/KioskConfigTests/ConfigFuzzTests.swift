import Foundation
import KioskConfig
import SeededRandom
import Testing

/// Thousands of broken files thrown at the parser and validator: it never traps, and always answers with
/// either a configuration or at least one problem, each on a line of the file (or naming its environment
/// variable). Seeded, so a failure reproduces; the failing input is printed with the failure.
@Suite struct ConfigFuzzTests {
    /// Mutations of the example file; each applies 1 to 4 of the mutations below. A longer campaign:
    /// `FUZZ_ITERATIONS=100000 FUZZ_SEED=7 swift test --filter ConfigFuzzTests` (the other counts scale).
    static let mutatedIterations = ProcessInfo.processInfo.environment["FUZZ_ITERATIONS"].flatMap(Int.init) ?? 2_500
    /// Files made only of fragments, and files of random bytes.
    static let assembledIterations = mutatedIterations / 3
    static let binaryIterations = mutatedIterations / 15
    /// Varies the files of the two campaigns; the default keeps every run the same.
    static let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"].flatMap(UInt64.init) ?? 0

    /// Lines that mean something to TOML or to our schema, valid or not, to splice into files.
    static let fragments: [String] = [
        "[screens.HDMI-A-2]", "[screens.lobby]", "[screens.\"HDMI-A-1\"]", "[screens.hdmi-a-1]", "[[touch]]", "[touch]",
        "[[screens]]", "[app-settings]", "[app-settings.deep.er]", "[screens.DP-1.edid]",
        "mode = \"1920x1080@60\"", "mode = \"off\"", "mode = 1", "mode = \"1920x1080@6O\"", "mode = \"0x0\"",
        "mode = \"99999999999999999999x1\"", "rotation = \"91\"", "rotation = \"flipped-90\"", "rotation = 90",
        "primary = true", "primary = \"DP-1\"", "primary = \"lobby\"", "primary = \"\"",
        "position = { x = 1, y = -1 }", "position = { x = 99999999999, y = 0 }", "position = [0, 0]", "position.x = 3",
        "edid = { make = \"SAM\" }", "edid = {}", "edid.serial = \"x\"", "edid = { make = \"\" }",
        "match = \"ILITEK*\"", "match = \"/dev/input/event0\"", "match = \"[\"", "match = \"222a:0001\"", "match = 7",
        "screen = \"nowhere\"", "screen = \"DSI-1\"", "screen = \"lobby\"",
        "calibration = [1, 0, 0, 0, 1, 0]", "calibration = [nan, inf, -inf, 1e308, 0, 0]", "calibration = [1, 2, 3, 4, 5]",
        "calibration = \"1 0 0 0 1 0\"",
        "touch = [{ match = \"a\", screen = \"DSI-1\" }]", "touch = [1, \"x\", {}]", "screens.DP-1.mode = \"current\"",
        "screens = \"none\"", "hotplug-debounce-ms = 99999999999999999999", "hotplug-debounce-ms = -0", "hotplug-debounce-ms = 1e3",
        "seat = \"\"", "backend = \"fbdev\"", "backend = \"DRM\"", "log-level = \"loud\"", "cursor = \"never\"", "app = \"other\"",
        "drm-device = \"card0\"", "a.b.c.d.e.f = 1", "x = [[[[[[[[[[", "x = \"\"\"", "x = '''unterminated", "\"\\u0000\" = 1",
        "s = \"\\u0000\"", "d = 1979-05-27T07:32:00Z", "t = 07:32:00", "= 1", "[", "]]", "\\", "key = \"value\" # comment",
        "k = { a = { b = { c = [1, [2, [3]]] } } }", "mode = \"\u{1F600}x1080\"", "# [screens.fake]", "rotaton = \"90\"",
        "deep = " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
        "ok = " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        Array(repeating: "z", count: 2_000).joined(separator: ".") + " = 1",
        "long = \"" + String(repeating: "x", count: 10_000) + "\"",
        "\"key with \\\"quotes\\\" and \\n\" = 1", "'literal key' = 2", "a = \"\"\"\nmulti\n[screens.fake]\n\"\"\"",
    ]

    /// Characters that steer TOML's grammar, so inserted bytes hit parser branches more often than random ones.
    static let syntaxBytes = Array("[]{}=\"'#.,\n\\ -_:0123456789xX@tfin+e".utf8)

    /// Characters parsers treat specially: Unicode spaces and line separators, a BOM, control characters.
    static let oddCharacters: [String] = [
        "\u{A0}", "\u{85}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{FEFF}", "\u{200B}",
        "é", "✋", "\u{FFFD}", "\r", "\u{0B}", "\u{0C}", "\t", "\u{1F}", "\u{7F}", "\r\n",
    ]

    static let environmentValues: [String: [String]] = [
        "KIOSK_BACKEND": ["drm", "gl", ""], "KIOSK_CURSOR": ["hidden", "sometimes"], "KIOSK_PRIMARY": ["DP-1", "lobby", "nope"],
        "KIOSK_HOTPLUG_DEBOUNCE_MS": ["0", "-5", "1e3", "99999999999999999999"], "KIOSK_SEAT": ["seat1"],
        "KIOSK_DRM_DEVICE": ["/dev/dri/card1", "card1"], "KIOSK_APP": ["demo", "x"], "KIOSK_LOG_LEVEL": ["DEBUG", "\u{0}"],
    ]

    @Test func mutatedExamples() throws {
        let example = Array(try exampleText().utf8)
        var random = SplitMix64(seed: 0x4B494F53_4B000001 &+ Self.seed)
        var outcome = Outcome()
        let (cpu, wall) = measure {
            for iteration in 0..<Self.mutatedIterations {
                var bytes = example
                for _ in 0...random.next(upperBound: 3) { Self.mutate(&bytes, using: &random) }
                let environment = iteration % 8 == 0 ? Self.environment(using: &random) : [:]
                outcome.check(bytes, environment: environment)
            }
        }
        print(
            "fuzz: \(Self.mutatedIterations) mutated examples in \(cpu) of CPU (\(wall) wall): \(outcome.valid) valid, \(outcome.invalid) with problems"
        )
        outcome.reportFailures()
        // The mutations must reach both outcomes, or the test tests less than it claims.
        #expect(outcome.valid > Self.mutatedIterations / 20)
        #expect(outcome.invalid > Self.mutatedIterations / 2)
        #expect(cpu < Self.cpuBound || Self.mutatedIterations > 2_500)
    }

    @Test func assembledAndBinaryFiles() {
        var random = SplitMix64(seed: 0x4B494F53_4B000002 &+ Self.seed)
        var outcome = Outcome()
        let (cpu, wall) = measure {
            for _ in 0..<Self.assembledIterations {
                let lines = (0..<(1 + random.next(upperBound: 20))).map { _ in Self.fragments[random.next(upperBound: Self.fragments.count)]
                }
                var bytes = Array(lines.joined(separator: "\n").utf8)
                if random.next(upperBound: 2) == 0 { Self.mutate(&bytes, using: &random) }
                outcome.check(bytes, environment: [:])
            }
            for _ in 0..<Self.binaryIterations {
                let bytes = (0..<random.next(upperBound: 4_096)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                outcome.check(bytes, environment: [:])
            }
        }
        print(
            "fuzz: \(Self.assembledIterations) assembled and \(Self.binaryIterations) binary files in \(cpu) of CPU (\(wall) wall): \(outcome.valid) valid, \(outcome.invalid) with problems"
        )
        outcome.reportFailures()
        #expect(outcome.invalid > 0)
        #expect(cpu < Self.cpuBound || Self.mutatedIterations > 2_500)
    }

    /// Same seed, same files, same answers: a failure seen once can be seen again.
    @Test func deterministic() throws {
        let example = Array(try exampleText().utf8)
        func run() -> [String] {
            var random = SplitMix64(seed: 42)
            return (0..<300).map { _ in
                var bytes = example
                Self.mutate(&bytes, using: &random)
                return switch KioskConfiguration.parse(bytes: bytes, path: "fuzz.toml") {
                case let .success(configuration): "valid \(configuration.screens.count) \(configuration.touch.count)"
                case let .failure(errors): errors.description
                }
            }
        }
        #expect(run() == run())
    }

    /// Inputs at the edges: structures a parser could recurse on, numbers at the limits.
    @Test(arguments: [
        String(repeating: "[", count: 100_000),
        "a = " + String(repeating: "[", count: 100_000),
        "a = " + String(repeating: "{ b = ", count: 10_000),
        Array(repeating: "a", count: 100_000).joined(separator: ".") + " = 1",
        "[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]\nb = 1",
        "[app-settings]\n" + Array(repeating: "a", count: 5_000).joined(separator: ".") + " = 1",
        "hotplug-debounce-ms = 9223372036854775807", "hotplug-debounce-ms = -9223372036854775808",
        "[app-settings]\nx = 1e400", "[[touch]]\ncalibration = [1e308, -1e308, 0, 0, 0, 0]\nmatch = \"a\"\nscreen = \"DP-1\"",
        String(repeating: "[[touch]]\n", count: 5_000),
        String(repeating: "\n", count: 100_000) + "bad =",
        "seat = \"" + String(repeating: "é", count: 100_000) + "\"",
    ])
    func edges(text: String) {
        var outcome = Outcome()
        outcome.check(Array(text.utf8), environment: [:])
        outcome.reportFailures()
    }

    /// The most CPU time a campaign of the default size may take. It is there to catch a parser gone
    /// quadratic (minutes on the 10,000-character fragments), not to benchmark: this thread's CPU time grows
    /// too on a loaded machine (shared caches and cores), 5-12 s measured beside builds and guests, so a
    /// bound of 10 s had failed there.
    static let cpuBound: Duration = .seconds(60)

    /// The CPU time of this thread and the wall time of `body`. The bound is on CPU time: wall time on a
    /// shared 2-core machine measures everyone else's builds too. (`body` has no suspension point, so it
    /// stays on this thread.)
    func measure(_ body: () -> Void) -> (cpu: Duration, wall: Duration) {
        func threadTime() -> Duration {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
        }
        let clock = ContinuousClock()
        let (cpuStart, wallStart) = (threadTime(), clock.now)
        body()
        return (threadTime() - cpuStart, clock.now - wallStart)
    }

    // MARK: Mutations

    static func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        let newline = UInt8(ascii: "\n")
        switch random.next(upperBound: 10) {
        case 0 where !bytes.isEmpty:  // flip a bit
            bytes[random.next(upperBound: bytes.count)] ^= 1 << UInt8(random.next(upperBound: 8))
        case 1:  // insert a byte, usually one TOML cares about
            let byte =
                random.next(upperBound: 4) == 0
                ? UInt8(truncatingIfNeeded: random.next()) : syntaxBytes[random.next(upperBound: syntaxBytes.count)]
            bytes.insert(byte, at: random.next(upperBound: bytes.count + 1))
        case 2 where !bytes.isEmpty:  // delete a run of bytes
            let start = random.next(upperBound: bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.next(upperBound: 16)))
        case 3, 4, 5:  // line edits: delete, duplicate, swap
            var lines = bytes.split(separator: newline, omittingEmptySubsequences: false).map(Array.init)
            guard !lines.isEmpty else { return }
            let a = random.next(upperBound: lines.count), b = random.next(upperBound: lines.count)
            switch random.next(upperBound: 3) {
            case 0: lines.remove(at: a)
            case 1: lines.insert(lines[a], at: b)
            default: lines.swapAt(a, b)
            }
            bytes = Array(lines.joined(separator: [newline]))
        case 6:  // splice in a fragment as a line of its own
            var lines = bytes.split(separator: newline, omittingEmptySubsequences: false).map(Array.init)
            lines.insert(Array(fragments[random.next(upperBound: fragments.count)].utf8), at: random.next(upperBound: lines.count + 1))
            bytes = Array(lines.joined(separator: [newline]))
        case 7:  // replace a value: after some "= ", up to the end of the line
            let equals = bytes.indices.filter { bytes[$0] == UInt8(ascii: "=") }
            guard !equals.isEmpty else { return }
            let start = equals[random.next(upperBound: equals.count)] + 1
            let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
            let values = [" \"x\"", " 1", " -1", " true", " []", " {}", " [1, 2]", " \"\"", " 1.5", " nan", " \"DP-1\"", " { x = 1 }"]
            bytes.replaceSubrange(start..<end, with: Array(values[random.next(upperBound: values.count)].utf8))
        case 8:  // insert an odd character
            let character = Array(oddCharacters[random.next(upperBound: oddCharacters.count)].utf8)
            bytes.insert(contentsOf: character, at: random.next(upperBound: bytes.count + 1))
        default:  // cut the file short
            bytes.removeSubrange(random.next(upperBound: bytes.count + 1)...)
        }
    }

    static func environment(using random: inout SplitMix64) -> [String: String] {
        var environment: [String: String] = [:]
        for (variable, values) in environmentValues where random.next(upperBound: 3) == 0 {
            environment[variable] = values[random.next(upperBound: values.count)]
        }
        return environment
    }
}

/// What the fuzz tests saw, and the inputs that broke a rule.
private struct Outcome {
    var valid = 0
    var invalid = 0
    var failures: [String] = []

    /// The rules: a configuration, or problems; every file problem on a line of this file (1 to the line
    /// count, a column from 1), every environment problem naming a variable that was set; one line each.
    mutating func check(_ bytes: [UInt8], environment: [String: String]) {
        let lineCount = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        switch KioskConfiguration.parse(bytes: bytes, path: "fuzz.toml", environment: environment) {
        case let .success(configuration):
            valid += 1
            let names = configuration.screens.map(\.name)
            if Set(names).count != names.count { fail(bytes, "duplicate screens accepted: \(names)") }
            for touch in configuration.touch where touch.calibration.map({ $0.count != 6 || !$0.allSatisfy(\.isFinite) }) ?? false {
                fail(bytes, "bad calibration accepted: \(touch)")
            }
        case let .failure(errors):
            invalid += 1
            if errors.problems.isEmpty { fail(bytes, "failure without problems") }
            for problem in errors.problems {
                switch problem.origin {
                case let .file(path, line, column):
                    if path != "fuzz.toml" { fail(bytes, "wrong file: \(problem)") }
                    guard let line, (1...lineCount).contains(line) else {
                        fail(bytes, "line outside the file (\(lineCount) lines): \(problem)")
                        continue
                    }
                    if let column, column < 1 { fail(bytes, "column < 1: \(problem)") }
                case let .environment(variable):
                    if environment[variable] == nil { fail(bytes, "problem with an unset variable: \(problem)") }
                case .commandLine:
                    fail(bytes, "a command-line problem without a command line: \(problem)")
                }
                if problem.description.contains("\n") { fail(bytes, "message on several lines: \(problem)") }
            }
        }
    }

    mutating func fail(_ bytes: [UInt8], _ what: String) {
        guard failures.count < 5 else { return }
        let shown = String(decoding: bytes.prefix(2_000), as: UTF8.self).debugDescription
        failures.append("\(what)\ninput: \(shown)")
    }

    func reportFailures(sourceLocation: SourceLocation = #_sourceLocation) {
        for failure in failures { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    }
}
