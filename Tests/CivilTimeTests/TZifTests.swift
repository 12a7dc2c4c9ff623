import Glibc
import Testing

@testable import CivilTime

/// A small zone in the shape of Europe/Berlin's: CET, CEST from 2024-03-31 01:00 UTC, CET from
/// 2024-10-27 01:00 UTC, then the footer.
private func berlinLike(version: UInt8 = UInt8(ascii: "2"), footer: String = "CET-1CEST,M3.5.0,M10.5.0/3") -> TZifBuilder {
    TZifBuilder(
        version: version, transitions: [(1_711_846_800, 1), (1_729_990_800, 0)],
        types: [
            .init(offset: 3600, isDaylight: false, abbreviation: "CET"), .init(offset: 7200, isDaylight: true, abbreviation: "CEST"),
        ],
        footer: footer, indicators: true)
}

private func offset(_ zone: TimeZone, _ seconds: Int64) -> ZoneOffset {
    zone.offset(at: Instant(secondsSinceEpoch: seconds))
}

private func systemBytes(_ name: String) throws -> [UInt8] {
    try ZoneFile.read(path: "\(TimeZone.systemZoneDirectory)/\(name)")
}

@Suite struct TZifTests {
    @Test(arguments: [UInt8(0), UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4")])
    func readsEachVersion(_ version: UInt8) throws {
        let zone = try TimeZone(tzifData: berlinLike(version: version).bytes(), name: "Test/Berlin")
        #expect(zone.identifier == "Test/Berlin")
        #expect(offset(zone, 1_711_846_799) == ZoneOffset(secondsFromUTC: 3600, isDaylightSavingTime: false, abbreviation: "CET"))
        #expect(offset(zone, 1_711_846_800) == ZoneOffset(secondsFromUTC: 7200, isDaylightSavingTime: true, abbreviation: "CEST"))
        #expect(offset(zone, 1_729_990_800).abbreviation == "CET")
        #expect(offset(zone, 0).abbreviation == "CET")  // before the first transition: the first type
        // 2025's switch: the footer's in versions 2 and later; version 1 has none, so its last type stays.
        let summer2025 = utc(2025, 7, 1, 0)
        #expect(offset(zone, summer2025).abbreviation == (version == 0 ? "CET" : "CEST"))
        #expect(
            zone.nextTransition(after: Instant(secondsSinceEpoch: 1_729_990_800))?.secondsSinceEpoch
                == (version == 0 ? nil : utc(2025, 3, 30, 1)))
    }

    @Test func footerAloneCoversAllTime() throws {
        // No transitions: the footer holds before and after (RFC 8536 section 3.2).
        let zone = try TimeZone(
            tzifData: TZifBuilder(
                types: [.init(offset: 3600, isDaylight: false, abbreviation: "CET")], footer: "CET-1CEST,M3.5.0,M10.5.0/3"
            ).bytes(),
            name: "Rule")
        #expect(offset(zone, utc(1950, 7, 1, 0)).abbreviation == "CEST")
        #expect(offset(zone, utc(2024, 3, 31, 1)).abbreviation == "CEST")
        #expect(offset(zone, utc(2024, 3, 31, 1) - 1).abbreviation == "CET")
        // No transitions and an empty footer: the first type throughout.
        let fixed = try TimeZone(
            tzifData: TZifBuilder(types: [.init(offset: -3600, isDaylight: false, abbreviation: "-01")]).bytes(), name: "Fixed")
        #expect(offset(fixed, Int64.min) == ZoneOffset(secondsFromUTC: -3600, isDaylightSavingTime: false, abbreviation: "-01"))
        #expect(fixed.nextTransition(after: Instant(secondsSinceEpoch: 0)) == nil)
        #expect(TimeZone.utc.offset(at: .now()) == ZoneOffset(secondsFromUTC: 0, isDaylightSavingTime: false, abbreviation: "UTC"))
        #expect(TimeZone.utc.localDateTime(at: Instant(secondsSinceEpoch: 1_711_846_800)).description == "2024-03-31T01:00:00")
    }

    @Test func withoutFooterTheLastTypeStays() throws {
        // A version 1 file whose last transition is to its second type: that type, not the first, holds after.
        var builder = berlinLike(version: 0)
        builder.transitions.removeLast()
        let zone = try TimeZone(tzifData: builder.bytes(), name: "Test")
        #expect(offset(zone, utc(2030, 1, 1, 0)).abbreviation == "CEST")
        #expect(offset(zone, utc(2000, 1, 1, 0)).abbreviation == "CET")
        #expect(zone.nextTransition(after: Instant(secondsSinceEpoch: 1_711_846_800)) == nil)
    }

    @Test func transitionsThatChangeNothingAreSkipped() throws {
        var builder = berlinLike()
        builder.types.append(.init(offset: 3600, isDaylight: false, abbreviation: "CET"))  // a second, identical CET
        builder.transitions.append((1_740_000_000, 2))
        builder.footer = ""
        let zone = try TimeZone(tzifData: builder.bytes(), name: "Test")
        #expect(zone.nextTransition(after: Instant(secondsSinceEpoch: 1_729_990_800)) == nil)
        #expect(zone.nextTransition(after: Instant(secondsSinceEpoch: 0))?.secondsSinceEpoch == 1_711_846_800)
    }

    @Test func missingZone() {
        let error = #expect(throws: TimeZoneError.self) { try TimeZone(named: "Nowhere/Atlantis") }
        #expect(error == .cannotOpen(file: "/usr/share/zoneinfo/Nowhere/Atlantis", errno: ENOENT))
        #expect(error?.description == "cannot open /usr/share/zoneinfo/Nowhere/Atlantis: No such file or directory (errno 2)")
    }

    @Test func directoryIsNotAZone() {
        let error = #expect(throws: TimeZoneError.self) { try TimeZone(named: "Europe") }
        #expect(error == .cannotRead(file: "/usr/share/zoneinfo/Europe", errno: EISDIR))
    }

    @Test(arguments: ["", "/etc/localtime", "../../etc/passwd", "Europe/../../../etc/passwd", "Europe/..", "Europe\0Berlin"])
    func namesOutsideTheDirectoryAreRefused(_ name: String) {
        let error = #expect(throws: TimeZoneError.self) { try TimeZone(named: name) }
        #expect(error == .invalidName(name))
    }

    @Test func fileThatIsNotTZif() throws {
        let error = #expect(throws: TimeZoneError.self) { try TimeZone(named: "zone1970.tab") }
        #expect(error == .notTZif(file: "/usr/share/zoneinfo/zone1970.tab"))
        #expect(throws: TimeZoneError.notTZif(file: "x")) { try TimeZone(tzifData: Array("TZ".utf8) + [0, 0], name: "x") }
        var wrongVersion = berlinLike().bytes()
        wrongVersion[4] = UInt8(ascii: "5")
        let versionError = #expect(throws: TimeZoneError.self) { try TimeZone(tzifData: wrongVersion, name: "x") }
        #expect(versionError == .unsupportedVersion(file: "x", version: UInt8(ascii: "5")))
        #expect(versionError?.description == "x has TZif version byte \"5\", which is not supported")
        #expect(TimeZoneError.truncated(file: "f", part: .localTimeTypes).description == "f is truncated in its local time type records")
    }

    /// A file cut inside each part is reported as truncated there.
    @Test func truncatedFiles() throws {
        let builder = berlinLike()
        let bytes = builder.bytes()
        let layout = builder.layout()
        let cuts: [(Int, TZifPart)] = [
            (0, .header), (3, .header), (30, .header), (layout.version1Block.lowerBound + 5, .version1DataBlock),
            (layout.version2Header.lowerBound + 10, .version2Header), (layout.transitionTimes.lowerBound + 9, .transitionTimes),
            (layout.transitionTypes.lowerBound + 1, .transitionTypes), (layout.localTimeTypes.lowerBound + 7, .localTimeTypes),
            (layout.designations.lowerBound + 2, .designations), (layout.indicators.lowerBound + 1, .standardWallIndicators),
            (layout.indicators.lowerBound + 3, .universalLocalIndicators), (layout.footer.lowerBound, .footer),
            (layout.footer.upperBound - 1, .footer),
        ]
        for (length, part) in cuts {
            let error = #expect(throws: TimeZoneError.self) { try TimeZone(tzifData: Array(bytes.prefix(length)), name: "cut") }
            #expect(error == .truncated(file: "cut", part: part), "cut at \(length)")
        }
        // Every prefix of a real file too, and nothing else is reported for them.
        let berlin = try systemBytes("Europe/Berlin")
        for length in 0..<berlin.count {
            do {
                _ = try TimeZone(tzifData: Array(berlin.prefix(length)), name: "cut")
                Issue.record("a prefix of \(length) bytes parsed")
            } catch {
                guard case .truncated = error else {
                    Issue.record("a prefix of \(length) bytes: \(error)")
                    continue
                }
            }
        }
        #expect(throws: TimeZoneError.truncated(file: "/usr/share/zoneinfo/Europe/Berlin", part: .leapSecondRecords)) {
            var leaps = berlinLike()
            leaps.leapSeconds = [(78_796_800, 1)]
            let bytes = leaps.bytes()
            _ = try TZif(
                bytes: Array(bytes.prefix(leaps.layout().leapSecondRecords.lowerBound + 3)), file: "/usr/share/zoneinfo/Europe/Berlin")
        }
    }

    @Test func badFooter() throws {
        let error = #expect(throws: TimeZoneError.self) {
            try TimeZone(tzifData: berlinLike(footer: "CET-1CEST,M3.5.0").bytes(), name: "Test/Bad")
        }
        guard case .badFooter(let file, let footer, let reason) = error else {
            Issue.record("expected badFooter, got \(String(describing: error))")
            return
        }
        #expect(file == "Test/Bad")
        #expect(footer == "CET-1CEST,M3.5.0")
        #expect(reason == "expected a comma before the daylight-saving end at the end")
        #expect(throws: TimeZoneError.self) { try TimeZone(tzifData: berlinLike(footer: "CET-1\u{7F}").bytes(), name: "x") }
    }

    @Test func malformedParts() throws {
        var outOfRange = berlinLike()
        outOfRange.transitions[1].type = 2
        #expect(throws: TimeZoneError.malformed(file: "x", reason: "a transition has a type index beyond its 2 types")) {
            try TimeZone(tzifData: outOfRange.bytes(), name: "x")
        }
        var unordered = berlinLike()
        unordered.transitions.reverse()
        #expect(throws: TimeZoneError.malformed(file: "x", reason: "its transition times are not in increasing order")) {
            try TimeZone(tzifData: unordered.bytes(), name: "x")
        }
        var noTypes = berlinLike()
        noTypes.transitions = []
        noTypes.types = []
        #expect(throws: TimeZoneError.malformed(file: "x", reason: "it has no local time types")) {
            try TimeZone(tzifData: noTypes.bytes(), name: "x")
        }
        var leaps = berlinLike()
        leaps.leapSeconds = [(78_796_800, 1)]
        #expect(throws: TimeZoneError.leapSecondsUnsupported(file: "x")) { try TimeZone(tzifData: leaps.bytes(), name: "x") }
        #expect(throws: TimeZoneError.leapSecondsUnsupported(file: "/usr/share/zoneinfo/right/UTC")) { try TimeZone(named: "right/UTC") }
    }

    /// Random corruption of a real file: the parser throws or returns, and never traps.
    @Test func corruptFilesDoNotTrap() throws {
        let berlin = try systemBytes("America/New_York")
        var random = SplitMix64(state: 42)
        var parsed = 0
        for _ in 0..<2000 {
            var bytes = berlin
            for _ in 0..<random.integer(in: 1...4) {
                bytes[random.integer(in: 0...bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
            }
            guard let zone = try? TimeZone(tzifData: bytes, name: "fuzz") else { continue }
            parsed += 1
            for seconds in [Int64.min, -1, 0, 1_711_846_800, 4_000_000_000, Int64.max] {
                _ = zone.offset(at: Instant(secondsSinceEpoch: seconds))
            }
            _ = zone.instant(for: CivilDateTime(year: 2024, month: 3, day: 10, hour: 2, minute: 30)!)
        }
        #expect(parsed > 0)  // some corruptions (in a designation, a time) still parse
    }

    /// A zone directory of one's own, as tests and images with zones elsewhere use.
    @Test func loadsFromAnotherDirectory() throws {
        var template = Array("/tmp/civiltime-test-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
            Issue.record("mkdtemp failed: errno \(errno)")
            return
        }
        defer { rmdir(directory) }
        #expect(mkdir("\(directory)/Test", 0o755) == 0)
        defer { rmdir("\(directory)/Test") }
        let path = "\(directory)/Test/Zone"
        let bytes = berlinLike().bytes()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(descriptor)
        defer { unlink(path) }

        let zone = try TimeZone(named: "Test/Zone", directory: directory)
        #expect(zone.identifier == "Test/Zone")
        #expect(offset(zone, 1_711_846_800).abbreviation == "CEST")
        #expect(try TimeZone(named: "Test/Zone", directory: directory + "/") == zone)
        #expect(throws: TimeZoneError.cannotOpen(file: "\(directory)/Europe/Berlin", errno: ENOENT)) {
            try TimeZone(named: "Europe/Berlin", directory: directory)
        }
    }

    /// Every zone the system ships parses (and the `right/` ones, with leap seconds, are refused as such).
    @Test func everySystemZoneParses() throws {
        var checked = 0
        for name in zoneNames(in: TimeZone.systemZoneDirectory, prefix: "") {
            let bytes = try systemBytes(name)
            guard bytes.starts(with: Array("TZif".utf8)) else { continue }
            do {
                let zone = try TimeZone(tzifData: bytes, name: name)
                _ = zone.localDateTime(at: .now())
                checked += 1
            } catch .leapSecondsUnsupported {
                #expect(name.hasPrefix("right/"), "\(name)")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        #expect(checked > 500)
    }
}

/// The regular files under a directory, recursively, as names relative to it.
func zoneNames(in directory: String, prefix: String) -> [String] {
    guard let stream = opendir(directory + "/" + prefix) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name == "." || name == ".." { continue }
        let relative = prefix + name
        var status = stat()
        guard stat(directory + "/" + relative, &status) == 0 else { continue }
        if status.st_mode & S_IFMT == S_IFDIR {
            names += zoneNames(in: directory, prefix: relative + "/")
        } else if status.st_mode & S_IFMT == S_IFREG {
            names.append(relative)
        }
    }
    return names
}
