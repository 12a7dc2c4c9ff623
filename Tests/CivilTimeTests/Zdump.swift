import CivilTime
import Glibc

/// The system's reference for the zone files: `zdump -v`, from the same tzcode as glibc's `localtime`,
/// lists the second before and the second of every transition in a range of years.
enum Zdump {
    static let path = "/usr/bin/zdump"
    static let isAvailable = access(path, X_OK) == 0
    static let skipMessage = "\(path) is not installed (Debian: package libc-bin), so there is no reference to compare with"

    /// One line of `zdump -v`: `Europe/Berlin  Sun Mar 31 01:00:00 2024 UT = Sun Mar 31 03:00:00 2024 CEST isdst=1 gmtoff=7200`.
    struct Line: CustomStringConvertible {
        var instant: Instant
        var local: CivilDateTime
        var localWeekday: String
        var abbreviation: String
        var isDaylightSavingTime: Bool
        var secondsFromUTC: Int
        var text: String

        var description: String { text }
    }

    /// The lines for a zone over `[firstYear, lastYear)`, leaving out the `NULL` lines for the ends of
    /// time; a failure (with the reason) if zdump cannot be run or prints something else.
    static func lines(zone: String, firstYear: Int, lastYear: Int) -> Result<[Line], ZdumpFailure> {
        let command = "\(path) -v -c \(firstYear),\(lastYear) \(zone)"
        guard let pipe = popen(command, "r") else { return .failure(ZdumpFailure(reason: "popen failed: errno \(errno)")) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count == 0 { break }
            output += buffer[..<count]
        }
        let status = pclose(pipe)
        guard status == 0 else { return .failure(ZdumpFailure(reason: "\(command) exited with status \(status)")) }
        var lines: [Line] = []
        for text in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let fields = text.split(separator: " ")
            if fields.last == "NULL" { continue }
            guard let line = parse(fields, text: String(text)) else {
                return .failure(ZdumpFailure(reason: "unexpected line from \(command): \(text)"))
            }
            lines.append(line)
        }
        return .success(lines)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func parse(_ fields: [Substring], text: String) -> Line? {
        // zone, 5 fields of UT, "UT", "=", 5 fields of local time, abbreviation, isdst=, gmtoff=
        guard fields.count == 16, fields[6] == "UT", fields[7] == "=",
            let universal = dateTime(fields[1...5]), let local = dateTime(fields[8...12]),
            fields[14].hasPrefix("isdst="), fields[15].hasPrefix("gmtoff="),
            let isDaylight = Int(fields[14].dropFirst(6)), let offset = Int(fields[15].dropFirst(7))
        else { return nil }
        // The instant from glibc's timegm rather than from the code under test.
        var broken = tm()
        broken.tm_year = Int32(universal.year - 1900)
        broken.tm_mon = Int32(universal.month - 1)
        broken.tm_mday = Int32(universal.day)
        broken.tm_hour = Int32(universal.hour)
        broken.tm_min = Int32(universal.minute)
        broken.tm_sec = Int32(universal.second)
        return Line(
            instant: Instant(secondsSinceEpoch: Int64(timegm(&broken))), local: local, localWeekday: String(fields[8]),
            abbreviation: String(fields[13]), isDaylightSavingTime: isDaylight == 1, secondsFromUTC: offset, text: text)
    }

    /// `Sun Mar 31 01:00:00 2024` (the weekday is checked separately).
    private static func dateTime(_ fields: ArraySlice<Substring>) -> CivilDateTime? {
        let parts = Array(fields)
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard let month = months.firstIndex(of: String(parts[1])), let day = Int(parts[2]), let year = Int(parts[4]), clock.count == 3
        else { return nil }
        return CivilDateTime(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }
}

struct ZdumpFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
