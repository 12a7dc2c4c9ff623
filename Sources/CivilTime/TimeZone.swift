/// A zone's UTC offset at some instant, with its daylight-saving flag and abbreviation (`CEST`).
public struct ZoneOffset: Sendable, Hashable {
    /// Positive east of Greenwich: 7200 for CEST.
    public let secondsFromUTC: Int
    /// The TZif flag, not a comparison with other offsets: Europe/Dublin's winter GMT is the
    /// daylight-saving one (its "negative DST"), its summer IST the standard.
    public let isDaylightSavingTime: Bool
    /// The designation in the file, such as `CET` or `+0530`.
    public let abbreviation: String

    /// An offset with its flag and abbreviation, as a zone file's local time type has them.
    public init(secondsFromUTC: Int, isDaylightSavingTime: Bool, abbreviation: String) {
        self.secondsFromUTC = secondsFromUTC
        self.isDaylightSavingTime = isDaylightSavingTime
        self.abbreviation = abbreviation
    }
}

/// A time zone of the tz database: its offsets from UTC through history and, after the last recorded
/// transition, by its POSIX rule.
///
/// Hand-written rather than borrowed: glibc has time zones only through the process-wide `TZ` variable
/// (`localtime_r` after `setenv`/`tzset`, which races every other thread that reads the environment or the
/// time), with no per-zone handle like tzcode's `tzalloc`, and ICU and Foundation are not allowed in the
/// kiosk. So the zone files are read here, as RFC 8536 describes them.
public struct TimeZone: Sendable, Hashable {
    /// The name it was loaded by (`Europe/Berlin`), or `UTC`.
    public let identifier: String
    private let transitionTimes: [Int64]
    private let transitionTypes: [UInt8]
    private let types: [ZoneOffset]
    private let rule: PosixTZRule?
    /// The largest distance from UTC in the zone, bounding the search in `occurrences(of:)`.
    private let maximumOffsetMagnitude: Int64

    /// The directory that Debian's tzdata (and most distributions') installs zone files in.
    public static let systemZoneDirectory = "/usr/share/zoneinfo"

    /// Coordinated Universal Time: offset 0 at every instant, with no file read.
    public static let utc = TimeZone(
        identifier: "UTC", tzif: TZif(transitionTimes: [], transitionTypes: [], types: [utcOffset], rule: nil))

    private static let utcOffset = ZoneOffset(secondsFromUTC: 0, isDaylightSavingTime: false, abbreviation: "UTC")

    /// Loads the zone file `directory/name` (`Europe/Berlin`); names that could leave the directory (a
    /// leading `/`, any `..`) are refused.
    public init(named name: String, directory: String = TimeZone.systemZoneDirectory) throws(TimeZoneError) {
        let path = try ZoneFile.path(forName: name, directory: directory)
        let bytes = try ZoneFile.read(path: path)
        self.init(identifier: name, tzif: try TZif(bytes: bytes, file: path))
    }

    /// A zone from a TZif file's bytes; `name` becomes the identifier and names the data in errors.
    public init(tzifData: [UInt8], name: String) throws(TimeZoneError) {
        self.init(identifier: name, tzif: try TZif(bytes: tzifData, file: name))
    }

    private init(identifier: String, tzif: TZif) {
        self.identifier = identifier
        transitionTimes = tzif.transitionTimes
        transitionTypes = tzif.transitionTypes
        types = tzif.types
        rule = tzif.rule
        let typeMaximum = tzif.types.map { Int64($0.secondsFromUTC.magnitude) }.max() ?? 0
        maximumOffsetMagnitude = max(typeMaximum, tzif.rule?.maximumOffsetMagnitude ?? 0)
    }
}

// MARK: - From instants to local time

extension TimeZone {
    /// The offset, daylight-saving flag and abbreviation in effect at an instant.
    public func offset(at instant: Instant) -> ZoneOffset {
        offset(at: instant.secondsSinceEpoch)
    }

    /// The wall-clock reading in the zone at an instant. Like `Int` arithmetic it traps where the reading
    /// cannot be represented: within a day of `Int64`'s ends, or (32-bit) beyond ±5.8 million years.
    public func localDateTime(at instant: Instant) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: instant.secondsSinceEpoch + Int64(offset(at: instant).secondsFromUTC))
    }

    /// The first instant after the given one at which the offset, the flag or the abbreviation changes, or
    /// nil if none ever does: when a clock showing local time must next redraw out of turn.
    public func nextTransition(after instant: Instant) -> Instant? {
        nextTransition(after: instant.secondsSinceEpoch).map(Instant.init(secondsSinceEpoch:))
    }

    /// RFC 8536 section 3.2: the first type before the first transition, each transition's type up to the
    /// last one, and after it the footer's rule (or, without one, the last type). Without transitions the
    /// rule, or the first type, holds throughout.
    private func offset(at time: Int64) -> ZoneOffset {
        guard let last = transitionTimes.last, time <= last else { return rule?.offset(at: time) ?? lastType }
        let index = transitionTimes.partitionPoint { $0 > time } - 1
        return index < 0 ? types[0] : types[Int(transitionTypes[index])]
    }

    private var lastType: ZoneOffset { transitionTypes.last.map { types[Int($0)] } ?? types[0] }

    private func nextTransition(after time: Int64) -> Int64? {
        var index = transitionTimes.partitionPoint { $0 > time }
        // A transition that changes nothing (only the file's standard/wall indicators differ) is no
        // transition to a reader of offsets.
        while index < transitionTimes.count {
            let before = index == 0 ? types[0] : types[Int(transitionTypes[index - 1])]
            if types[Int(transitionTypes[index])] != before { return transitionTimes[index] }
            index += 1
        }
        guard let rule else { return nil }
        guard let last = transitionTimes.last else { return rule.nextChange(after: time) }
        // A footer that disagrees with the last transition (RFC 8536 forbids it) takes over just after it.
        if time <= last, rule.offset(at: last + 1) != lastType { return last + 1 }
        return rule.nextChange(after: max(time, last))
    }
}

extension Array {
    /// The index of the first element for which `isInSecondPart` holds, in an array where it holds for a
    /// suffix: a binary search.
    fileprivate func partitionPoint(_ isInSecondPart: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if isInSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

// MARK: - From local time to instants

/// What to do with a local time that the clocks skip (spring forward: 02:30 on Berlin's March day).
public enum SkippedTimePolicy: Sendable, Hashable {
    /// Later by the gap's length, as Foundation's `Calendar` does by default: 02:30 becomes 03:30 CEST
    /// (the instant 02:30 would be on the clock from before the gap).
    case shiftForward
    /// The first instant after the gap: 02:30 becomes 03:00 CEST.
    case transition
    /// Earlier by the gap's length: 02:30 becomes 01:30 CET (the instant on the clock from after the gap).
    case shiftBackward
}

/// Which of the two instants a local time that the clocks show twice (fall back) means.
public enum RepeatedTimePolicy: Sendable, Hashable {
    /// The first, still on daylight-saving time, as Foundation's `Calendar` chooses by default.
    case earlier
    /// The second, after the clocks went back.
    case later
}

/// How many instants a wall-clock reading names in a zone.
public enum LocalTimeOccurrence: Sendable, Hashable {
    /// One: the usual case.
    case unique(Instant)
    /// Two, when the clocks went back over it (if they did so twice within the zone's search window,
    /// the first and the last).
    case repeated(earlier: Instant, later: Instant)
    /// None: the clocks jumped over it at `transition`, from `offsetBefore` to `offsetAfter` seconds
    /// from UTC.
    case skipped(transition: Instant, offsetBefore: Int, offsetAfter: Int)
}

extension TimeZone {
    /// The instant at which the zone's clocks show a reading, resolving one that does not exist (the
    /// spring-forward gap) or exists twice (the fall-back overlap) by the policies, which default as
    /// Foundation's `Calendar` does.
    public func instant(
        for local: CivilDateTime, skippedTime: SkippedTimePolicy = .shiftForward, repeatedTime: RepeatedTimePolicy = .earlier
    ) -> Instant {
        let reading = local.secondsSinceEpoch
        switch occurrences(of: local) {
        case .unique(let instant):
            return instant
        case .repeated(let earlier, let later):
            return repeatedTime == .earlier ? earlier : later
        case .skipped(let transition, let offsetBefore, let offsetAfter):
            switch skippedTime {
            case .shiftForward: return Instant(secondsSinceEpoch: reading - Int64(offsetBefore))
            case .transition: return transition
            case .shiftBackward: return Instant(secondsSinceEpoch: reading - Int64(offsetAfter))
            }
        }
    }

    /// Every instant at which the zone's clocks show a reading: one, two or none.
    public func occurrences(of local: CivilDateTime) -> LocalTimeOccurrence {
        let reading = local.secondsSinceEpoch
        // Any instant showing the reading is within the largest offset of it. The offsets in effect over
        // that window, as (start, offset) periods; the first starts before the window.
        let windowStart = reading - maximumOffsetMagnitude - 1
        let windowEnd = reading + maximumOffsetMagnitude + 1
        var periods: [(start: Int64, offset: Int64)] = [(windowStart, Int64(offset(at: windowStart).secondsFromUTC))]
        var cursor = windowStart
        while let next = nextTransition(after: cursor), next <= windowEnd {
            periods.append((next, Int64(offset(at: next).secondsFromUTC)))
            cursor = next
        }

        // A period shows the reading if the instant reading − offset falls inside it.
        var instants: [Int64] = []
        for (index, period) in periods.enumerated() {
            let candidate = reading - period.offset
            let end = index + 1 < periods.count ? periods[index + 1].start : Int64.max
            if candidate >= period.start && candidate < end { instants.append(candidate) }
        }
        if let first = instants.first, let last = instants.last {
            let earlier = Instant(secondsSinceEpoch: first)
            return first == last ? .unique(earlier) : .repeated(earlier: earlier, later: Instant(secondsSinceEpoch: last))
        }

        // None does: the reading is in the gap before the first period whose clock starts after it (the
        // first period's starts a largest offset before the reading, so that is a later one).
        guard let index = periods.indices.first(where: { periods[$0].start + periods[$0].offset > reading }), index > 0 else {
            return .unique(Instant(secondsSinceEpoch: reading - periods[0].offset))  // not reached: see above
        }
        return .skipped(
            transition: Instant(secondsSinceEpoch: periods[index].start), offsetBefore: Int(periods[index - 1].offset),
            offsetAfter: Int(periods[index].offset))
    }
}
