import Foundation
import Testing

@testable import CivilTime

/// `TimeZone.system`: `TZ` first, then `/etc/localtime` named by its link, then UTC.
@Suite struct SystemZoneTests {
    @Test func tzNamesTheZone() {
        #expect(TimeZone.system(environment: "Europe/Berlin").identifier == "Europe/Berlin")
        #expect(TimeZone.system(environment: ":America/New_York").identifier == "America/New_York")
    }

    @Test func aLocalTimeLinkIsNamedByItsZone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("civiltime-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("localtime").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Asia/Kolkata")
        let zone = TimeZone.system(environment: nil, localTime: link)
        #expect(zone.identifier == "Asia/Kolkata" && zone.offset(at: Instant(secondsSinceEpoch: 0)).secondsFromUTC == 19800)
        // An unknown TZ falls to the link; no link at all is UTC.
        #expect(TimeZone.system(environment: "Nowhere/Else", localTime: link).identifier == "Asia/Kolkata")
        #expect(TimeZone.system(environment: nil, localTime: folder.appendingPathComponent("missing").path) == .utc)
    }
}
